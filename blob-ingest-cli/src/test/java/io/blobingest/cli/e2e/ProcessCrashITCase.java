package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code run} command as users run it, through the {@code ./blob-ingest} launcher in a child
 * JVM against this JVM's broker: killed with SIGKILL mid-stream, then started again with {@code
 * --resume --bounded}. The resumed job restores the newest retained checkpoint, aborts the dead
 * process's open Kafka transactions (same group id, so same transactional id prefix), and every
 * input, before and after the crash, ends up exactly once and byte-exact; the dead process's
 * leftovers are hidden in-progress files only.
 */
class ProcessCrashITCase {

    private static final int PARTITIONS = 2;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final TestWorkload WORKLOAD = new TestWorkload(23, 1_500);
    /** Produced before the first start; the next part while it runs; the rest after the kill. */
    private static final int BEFORE_START = 500;

    private static final int BEFORE_KILL = 1_000;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    @Test
    void everyInputExactlyOnceAfterTheProcessIsKilledAndResumedFromItsLastCheckpoint() throws Exception {
        ChildProcess.createTopics(KAFKA, PARTITIONS);
        Path base = dir.resolve("base");
        List<String> run =
                ChildProcess.runCommand(KAFKA, "crash-test", base, PARTITIONS, "1s", dir.resolve("checkpoints"));
        List<String> resume = new ArrayList<>(run);
        resume.addAll(List.of("--resume", "--bounded"));
        ChildProcess first = null;
        ChildProcess second = null;
        try {
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, 0, BEFORE_START);
            first = ChildProcess.start(run, dir.resolve("first.log"));
            first.awaitCommittedDescriptors(KAFKA, "descriptors", TIMEOUT);
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_START, BEFORE_KILL);
            first.kill();

            // The last records were acknowledged just before the kill: no checkpoint can have
            // committed their descriptors, which needs two more checkpoints.
            assertThat(KAFKA.drainCommitted("descriptors"))
                    .as("descriptors committed when the process died")
                    .isNotEmpty()
                    .hasSizeLessThan(BEFORE_KILL);
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_KILL, WORKLOAD.count());
            second = ChildProcess.start(resume, dir.resolve("second.log"));
            assertThat(second.awaitExit(TIMEOUT))
                    .as("exit code of the resumed bounded run")
                    .isZero();
            assertThat(second.output()).contains("blob-ingest: job ");

            Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, "descriptors", base).assertExactlyOnceAndByteExact(WORKLOAD, all);
            assertThat(KAFKA.drainCommitted("dead-letters")).as("dead letters").isEmpty();
            StoredBlobs stored = new StoredBlobs(base);
            stored.assertOnlyCommittedFilesAreVisible(stored.committedManifests());
            RunResult verify = TestEnvironment.runCli("pack", "verify", base.toString());
            assertThat(verify.exitCode()).as(verify.output()).isZero();
            assertThat(verify.output()).contains(" 0 faults");
        } catch (AssertionError | Exception e) {
            ChildProcess.printOutputs(first, second);
            throw e;
        } finally {
            ChildProcess.destroyAll(first, second);
        }
    }
}
