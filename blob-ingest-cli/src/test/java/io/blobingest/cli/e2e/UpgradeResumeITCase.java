package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.launch.RetainedCheckpoints;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upgrade: the previous release's job ({@link PreviousRelease}, its own {@code ./blob-ingest
 * run} in a child JVM) is SIGKILLed while a committed blob set's descriptors are not committed,
 * and the current command line resumes its retained checkpoint. That release wrote no lineage
 * record, so the same command is refused in one line naming the checkpoint and how to resume it;
 * given so ({@code -D execution.state-recovery.path=<it> -D
 * execution.state-recovery.claim-mode=CLAIM}), the current job restores the old state, fails over
 * once inside the job on its first checkpoint, and its bounded run exits 0 with every input
 * exactly once in the descriptor topic and the manifests, byte-exact. Then the plain command
 * starts again over more input, as after any finished run, and exits 0: the claimed checkpoint is
 * gone. (With the path alone, as the refusal first advised, Flink kept the old checkpoint and
 * every later start was refused with the same advice, which would restore an older checkpoint.)
 */
class UpgradeResumeITCase {

    private static final int PARTITIONS = 2;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final TestWorkload WORKLOAD = new TestWorkload(67, 1_000);
    private static final int BEFORE_START = 300;
    private static final int BEFORE_KILL = 600;
    private static final int BEFORE_UPGRADE = 900;
    private static final String GROUP = "upgrade";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    @Test
    void theCurrentJobResumesARetainedCheckpointOfThePreviousReleaseExactlyOnce() throws Exception {
        Path previous = PreviousRelease.launcherRoot();
        ChildProcess.createTopics(KAFKA, PARTITIONS);
        Path base = dir.resolve("base");
        Path checkpoints = dir.resolve("checkpoints");
        List<String> run = ChildProcess.runCommand(KAFKA, GROUP, base, PARTITIONS, "1s", checkpoints);
        ChildProcess old = null;
        try {
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, 0, BEFORE_START);
            old = ChildProcess.start(previous, run, dir.resolve("previous-release.log"));
            old.awaitCommittedDescriptors(KAFKA, "descriptors", TIMEOUT);
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_START, BEFORE_KILL);
            old.awaitACommittedSetWithoutDescriptors(KAFKA, "descriptors", base, BEFORE_START, TIMEOUT);
            old.kill();
            URI retained = RetainedCheckpoints.latest(checkpoints.toUri())
                    .orElseThrow(() -> new AssertionError("the previous release retained no checkpoint"));

            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_KILL, BEFORE_UPGRADE);
            List<String> bounded = new ArrayList<>(run);
            bounded.add("--bounded");
            RunResult refused = TestEnvironment.runCli(bounded.toArray(String[]::new));
            assertThat(refused.exitCode()).as(refused.output()).isEqualTo(2);
            assertThat(refused.output())
                    .contains(
                            "has no lineage record",
                            "-D execution.state-recovery.path="
                                    + retained.toString().replace("file:///", "file:/"),
                            "-D execution.state-recovery.claim-mode=CLAIM");

            List<String> resume = new ArrayList<>(bounded);
            resume.addAll(List.of(
                    "-D",
                    "execution.state-recovery.path=" + retained,
                    "-D",
                    "execution.state-recovery.claim-mode=CLAIM",
                    "-D",
                    FailOnceAtCheckpointOutput.option("upgrade", 1)));
            long start = System.nanoTime();
            RunResult resumed = TestEnvironment.runCli(resume.toArray(String[]::new));
            System.out.printf(
                    "the resumed run took %d ms%n",
                    Duration.ofNanos(System.nanoTime() - start).toMillis());
            assertThat(resumed.exitCode()).as(resumed.output()).isZero();
            assertThat(FailOnceAtCheckpointOutput.fired("upgrade"))
                    .as("the resumed run failed once inside the job")
                    .isTrue();

            Set<Integer> upgraded = IntStream.range(0, BEFORE_UPGRADE).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, "descriptors", base)
                    .assertExactlyOnceAndByteExact(timestampsCheckedFrom(BEFORE_UPGRADE), upgraded);

            // The next start of the same command, as an operator's routine restart, goes on from there.
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_UPGRADE, WORKLOAD.count());
            RunResult next = TestEnvironment.runCli(bounded.toArray(String[]::new));
            assertThat(next.exitCode()).as(next.output()).isZero();
            Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, "descriptors", base)
                    .assertExactlyOnceAndByteExact(timestampsCheckedFrom(BEFORE_UPGRADE), all);
            assertThat(KAFKA.drainCommitted("dead-letters")).as("dead letters").isEmpty();
            StoredBlobs stored = new StoredBlobs(base);
            stored.assertOnlyCommittedFilesAreVisible(stored.committedManifests());
        } catch (AssertionError | Exception e) {
            ChildProcess.printOutputs(old);
            throw e;
        } finally {
            ChildProcess.destroyAll(old);
        }
    }

    /**
     * The workload, its Kafka timestamps checked from input {@code first} on: the previous release
     * wrote none, and rows it had placed come back from its state without one.
     */
    private static PipelineOutput.Inputs timestampsCheckedFrom(int first) {
        return new PipelineOutput.Inputs() {
            @Override
            public byte[] bytes(int index) {
                return WORKLOAD.bytes(index);
            }

            @Override
            public byte[] key(int index) {
                return WORKLOAD.key(index);
            }

            @Override
            public List<Header> headers(int index) {
                return WORKLOAD.headers(index);
            }

            @Override
            public BlobKind kind(int index) {
                return WORKLOAD.kind(index);
            }

            @Override
            public Long timestamp(int index) {
                return index >= first ? WORKLOAD.timestamp(index) : null;
            }
        };
    }
}
