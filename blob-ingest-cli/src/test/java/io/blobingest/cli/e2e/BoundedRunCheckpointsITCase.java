package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.BlobIngestCli;
import io.blobingest.job.launch.RetainedCheckpoints;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.storage.testing.FlakyFileSystem;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.configuration.CheckpointingOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local bounded {@code run} returns only once Flink has discarded the finished job's checkpoints.
 * Flink's local executor completes {@code execute()} when the job result is known and shuts the
 * per-job MiniCluster down asynchronously; that shutdown is what discards the final checkpoint, so
 * a CLI that exited at once (System.exit) left it behind, and the next plain {@code run} resumed
 * from a checkpoint whose sources had finished. The checkpoints are kept on a file system whose
 * directory deletes are slow, so the discard outlasts the job's result by seconds, deterministically.
 */
class BoundedRunCheckpointsITCase {

    private static final int PARTITIONS = 2;
    private static final TestWorkload WORKLOAD = new TestWorkload(31, 200);
    /** Far longer than the moment between the command's return and the test's look. */
    private static final Duration SLOW_DIRECTORY_DELETE = Duration.ofSeconds(3);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    @Test
    void aBoundedLocalRunReturnsOnlyOnceFlinkHasDiscardedEveryCheckpointDirectoryOfTheJob() throws Exception {
        ChildProcess.createTopics(KAFKA, PARTITIONS);
        Path checkpoints = dir.resolve("checkpoints");
        FlakyFileSystem.slowDirectoryDeletes(checkpoints, SLOW_DIRECTORY_DELETE);
        WORKLOAD.send(KAFKA, "blobs", PARTITIONS, 0, WORKLOAD.count());
        List<String> run = new ArrayList<>(ChildProcess.runCommand(
                KAFKA, "bounded-checkpoints", dir.resolve("base"), PARTITIONS, "1s", checkpoints));
        run.addAll(List.of(
                "--bounded",
                "-D",
                CheckpointingOptions.CHECKPOINTS_DIRECTORY.key() + "=" + FlakyFileSystem.uri(checkpoints)));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int exitCode = BlobIngestCli.execute(
                run.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(exitCode).as("exit code; output:%n%s%n%s", out, err).isZero();
        assertThat(RetainedCheckpoints.latest(checkpoints.toUri()))
                .as("checkpoints left when the bounded run returned")
                .isEmpty();
        assertThat(checkpointDirectories(checkpoints))
                .as("checkpoint directories still being deleted when the bounded run returned")
                .isEmpty();
    }

    private static List<Path> checkpointDirectories(Path checkpoints) throws Exception {
        try (Stream<Path> paths = Files.walk(checkpoints)) {
            return paths.filter(path -> path.getFileName().toString().startsWith("chk-"))
                    .toList();
        }
    }
}
