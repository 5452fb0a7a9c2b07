package io.blobingest.cli.e2e;

import io.blobingest.cli.BlobIngestCli;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/**
 * What the end-to-end tests share: Flink's MiniCluster as they all shape it (one TaskManager, a
 * slot per input partition), and the command line run inside this JVM, as {@code ./blob-ingest}
 * runs it, its output captured.
 */
final class TestEnvironment {

    /** A command's exit code and everything it printed. */
    record RunResult(int exitCode, String output) {}

    private TestEnvironment() {}

    static MiniClusterExtension miniCluster(int slots) {
        return miniCluster(slots, new Configuration());
    }

    static MiniClusterExtension miniCluster(int slots, Configuration configuration) {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(slots)
                .setConfiguration(configuration)
                .build());
    }

    /** {@code ./blob-ingest <args>}. */
    static RunResult runCli(String... args) {
        StringWriter out = new StringWriter();
        int exitCode = BlobIngestCli.execute(args, new PrintWriter(out, true), new PrintWriter(out, true));
        return new RunResult(exitCode, out.toString());
    }

    /** {@code ./blob-ingest run --bootstrap-servers <the broker> <options>}. */
    static RunResult run(KafkaBrokerExtension kafka, String... options) {
        List<String> args = new ArrayList<>(List.of("run", "--bootstrap-servers", kafka.bootstrapServers()));
        args.addAll(List.of(options));
        return runCli(args.toArray(String[]::new));
    }
}
