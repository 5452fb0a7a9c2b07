package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.launch.RetainedCheckpoints;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.net.URI;
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
 * spec.md section 6.5 "Lineage": two jobs share one checkpoint directory, as every job on a Flink cluster
 * shares {@code execution.checkpointing.dir}. Job A ({@code ./blob-ingest run} in a child JVM, its
 * own topics, group and base) is killed with SIGKILL once it has committed descriptors, so its
 * checkpoint is retained. Job B (other topics, group and base, the same checkpoint directory) then
 * runs {@code --bounded}: it must start from its own group's offsets, not from A's checkpoint, and
 * deliver exactly its own inputs exactly once, leaving A's checkpoint where it is. A's own command
 * then resumes from A's checkpoint and delivers all of A's inputs exactly once.
 */
class SharedCheckpointDirectoryITCase {

    private static final int PARTITIONS = 2;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final TestWorkload WORKLOAD_A = new TestWorkload(43, 400);
    private static final TestWorkload WORKLOAD_B = new TestWorkload(47, 300);
    private static final int A_BEFORE_KILL = 200;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    @Test
    void aJobResumesOnlyItsOwnLineagesCheckpointsFromASharedDirectory() throws Exception {
        for (String job : List.of("a", "b")) {
            KAFKA.createTopic(job + ".in", PARTITIONS);
            KAFKA.createTopic(job + ".descriptors", 1);
            KAFKA.createTopic(job + ".dead-letters", 1);
        }
        Path checkpoints = dir.resolve("checkpoints");
        Path baseA = dir.resolve("base-a");
        Path baseB = dir.resolve("base-b");
        List<String> runA = runCommand("a", "job-a", baseA, checkpoints);
        List<String> restartA = new ArrayList<>(runA);
        restartA.add("--bounded");
        List<String> runB = new ArrayList<>(runCommand("b", "job-b", baseB, checkpoints));
        runB.add("--bounded");
        ChildProcess a = null;
        ChildProcess b = null;
        ChildProcess aAgain = null;
        try {
            WORKLOAD_A.send(KAFKA, "a.in", PARTITIONS, 0, A_BEFORE_KILL);
            a = ChildProcess.start(runA, dir.resolve("a.log"));
            a.awaitCommittedDescriptors(KAFKA, "a.descriptors", TIMEOUT);
            a.kill();
            URI checkpointOfA = RetainedCheckpoints.latest(checkpoints.toUri()).orElseThrow();

            WORKLOAD_B.send(KAFKA, "b.in", PARTITIONS, 0, WORKLOAD_B.count());
            b = ChildProcess.start(runB, dir.resolve("b.log"));
            assertThat(b.awaitExit(TIMEOUT)).as("exit code of job B").isZero();
            assertThat(b.output())
                    .as("output of job B")
                    .doesNotContain("resuming from")
                    .contains("leaving the checkpoints of other jobs under", "[job-a]");
            Set<Integer> allOfB = IntStream.range(0, WORKLOAD_B.count()).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, "b.descriptors", baseB).assertExactlyOnceAndByteExact(WORKLOAD_B, allOfB);
            assertThat(KAFKA.drainCommitted("b.dead-letters"))
                    .as("B's dead letters")
                    .isEmpty();
            assertThat(Path.of(checkpointOfA).resolve("_metadata"))
                    .as("A's retained checkpoint after job B")
                    .exists();

            WORKLOAD_A.send(KAFKA, "a.in", PARTITIONS, A_BEFORE_KILL, WORKLOAD_A.count());
            aAgain = ChildProcess.start(restartA, dir.resolve("a-again.log"));
            assertThat(aAgain.awaitExit(TIMEOUT)).as("exit code of A's restart").isZero();
            assertThat(aAgain.output()).contains("resuming from " + checkpointOfA);
            Set<Integer> allOfA = IntStream.range(0, WORKLOAD_A.count()).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, "a.descriptors", baseA).assertExactlyOnceAndByteExact(WORKLOAD_A, allOfA);
            assertThat(KAFKA.drainCommitted("a.dead-letters"))
                    .as("A's dead letters")
                    .isEmpty();
            // Both finished: their checkpoints are discarded, and A's restart claimed the one it resumed.
            assertThat(RetainedCheckpoints.latest(checkpoints.toUri()))
                    .as("checkpoints left after both jobs finished")
                    .isEmpty();
        } catch (AssertionError | Exception e) {
            ChildProcess.printOutputs(a, b, aAgain);
            throw e;
        } finally {
            ChildProcess.destroyAll(a, b, aAgain);
        }
    }

    /** A {@code run} over the topics {@code <job>.in}, {@code <job>.descriptors}, {@code <job>.dead-letters}. */
    private static List<String> runCommand(String job, String group, Path base, Path checkpoints) {
        return TestEnvironment.runArguments(KAFKA, job + ".in", job + ".descriptors", job + ".dead-letters", base)
                .groupId(group)
                .parallelism(PARTITIONS)
                .checkpointInterval("1s")
                .checkpointDir(checkpoints)
                .toList();
    }
}
