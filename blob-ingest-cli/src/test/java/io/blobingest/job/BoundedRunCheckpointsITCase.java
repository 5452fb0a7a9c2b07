package io.blobingest.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.cli.BlobIngestCli;
import io.blobingest.job.internal.RetainedCheckpoints;
import io.blobingest.kafka.testing.KafkaBrokerExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local bounded {@code run} returns only once Flink has discarded the finished job's checkpoints.
 * Flink's local executor completes {@code execute()} when the job result is known and shuts the
 * per-job MiniCluster down asynchronously; that shutdown is what discards the final checkpoint, so
 * a CLI that exited at once (System.exit) left it behind, and the next plain {@code run} resumed
 * from a checkpoint whose sources had finished.
 */
class BoundedRunCheckpointsITCase {

    private static final int PARTITIONS = 2;
    private static final TestWorkload WORKLOAD = new TestWorkload(31, 200);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    @Test
    void aBoundedLocalRunReturnsWithNoRetainedCheckpointLeft() throws Exception {
        ChildProcess.createTopics(KAFKA, PARTITIONS);
        Path checkpoints = dir.resolve("checkpoints");
        WORKLOAD.send(KAFKA, "blobs", PARTITIONS, 0, WORKLOAD.count());
        List<String> run = new ArrayList<>(ChildProcess.runCommand(
                KAFKA, "bounded-checkpoints", dir.resolve("base"), PARTITIONS, "1s", checkpoints));
        run.add("--bounded");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int exitCode = BlobIngestCli.execute(
                run.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(exitCode).as("exit code; output:%n%s%n%s", out, err).isZero();
        assertThat(RetainedCheckpoints.latest(checkpoints.toUri()))
                .as("checkpoints left when the bounded run returned")
                .isEmpty();
    }
}
