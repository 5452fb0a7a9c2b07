package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
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
 * Two {@code run}s on one input topic share the consumer group and so the transactional id prefix:
 * each start of one aborts the other's transactions, each commit may find its producer fenced. A
 * second {@code run} while the first runs (a child JVM) must be refused before it starts, naming
 * the prefix; the first goes on and delivers every input exactly once.
 */
class SecondJobITCase {

    private static final int PARTITIONS = 2;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final TestWorkload WORKLOAD = new TestWorkload(37, 600);
    private static final int BEFORE_SECOND = 300;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    @Test
    void aSecondRunOnTheSameGroupIsRefusedAndTheFirstStaysExactlyOnce() throws Exception {
        ChildProcess.createTopics(KAFKA, PARTITIONS);
        Path base = dir.resolve("base");
        List<String> run = ChildProcess.runCommand(KAFKA, "shared", base, PARTITIONS, "1s", dir.resolve("checkpoints"));
        ChildProcess first = null;
        try {
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, 0, BEFORE_SECOND);
            first = ChildProcess.start(run, dir.resolve("first.log"));
            first.awaitCommittedDescriptors(KAFKA, "descriptors", TIMEOUT);

            List<String> second = new ArrayList<>(run);
            second.set(second.indexOf("--base") + 1, dir.resolve("second-base").toString());
            second.set(
                    second.indexOf("--checkpoint-dir") + 1,
                    dir.resolve("second-checkpoints").toString());
            second.add("--bounded");
            // The first run's claim of the lineage would refuse this start at once (DoubleSubmitITCase);
            // with no claim window left it is the watch of the transactional ids that must refuse it.
            second.addAll(List.of("-D", "kafka.lineage-claim-window=0s"));
            RunResult refused = TestEnvironment.runCli(second.toArray(String[]::new));
            assertThat(refused.exitCode()).as(refused.output()).isEqualTo(2);
            assertThat(refused.output())
                    .contains(
                            "another job is using the transactional id prefix 'shared'",
                            "give this one its own --group-id");

            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_SECOND, WORKLOAD.count());
            awaitDescriptors(first, base, WORKLOAD.count());
            assertThat(first.process().isAlive())
                    .as("the first run is still running")
                    .isTrue();
            Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, "descriptors", base).assertExactlyOnceAndByteExact(WORKLOAD, all);
            assertThat(KAFKA.drainCommitted("dead-letters")).as("dead letters").isEmpty();
        } catch (AssertionError | Exception e) {
            ChildProcess.printOutputs(first);
            throw e;
        } finally {
            ChildProcess.destroyAll(first);
        }
    }

    private static void awaitDescriptors(ChildProcess child, Path base, int count) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (PipelineOutput.read(KAFKA, "descriptors", base).descriptors.size() < count) {
            assertThat(child.process().isAlive())
                    .as("the first run is still running")
                    .isTrue();
            if (System.nanoTime() > deadline) {
                throw new AssertionError("fewer than " + count + " committed descriptors within " + TIMEOUT);
            }
            Thread.sleep(500);
        }
    }
}
