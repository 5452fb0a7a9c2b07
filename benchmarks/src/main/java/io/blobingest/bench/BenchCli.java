package io.blobingest.bench;

import io.blobingest.cli.BlobIngestCli;
import io.blobingest.job.launch.JobCli;
import picocli.CommandLine;

/**
 * The main class of {@code blob-ingest-bench.jar}: the {@code blob-ingest} command line with {@code
 * bench} added, which lives here beside the JMH benchmarks ({@code ./blob-ingest bench} runs it).
 * The contenders' JVMs start from this jar's class path.
 */
public final class BenchCli {

    private BenchCli() {}

    public static void main(String[] args) {
        JobCli.exit(commandLine(), args);
    }

    static CommandLine commandLine() {
        return BlobIngestCli.commandLine().addSubcommand(new BenchCommand());
    }
}
