package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same job submitted twice at once, as a retried deploy does: two {@code run --bounded} with
 * the same arguments on a new consumer group, each with its own checkpoint directory, started
 * together in child JVMs. No transaction of the group exists yet, so watching the transactional ids
 * cannot tell the two apart; one start must be refused before it writes anything and the other
 * delivers every input exactly once.
 */
class DoubleSubmitITCase {

    private static final int PARTITIONS = 2;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final TestWorkload WORKLOAD = new TestWorkload(41, 200);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    @Test
    void theSameRunSubmittedTwiceAtOnceIsRefusedOnceAndDeliversEveryInputOnce() throws Exception {
        ChildProcess.createTopics(KAFKA, PARTITIONS);
        Path base = dir.resolve("base");
        WORKLOAD.send(KAFKA, "blobs", PARTITIONS, 0, WORKLOAD.count());
        ChildProcess first = null;
        ChildProcess second = null;
        try {
            first = ChildProcess.start(command(base, "first-checkpoints"), dir.resolve("first.log"));
            second = ChildProcess.start(command(base, "second-checkpoints"), dir.resolve("second.log"));
            assertThat(first.process().waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                    .as("first run ended")
                    .isTrue();
            assertThat(second.process().waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                    .as("second run ended")
                    .isTrue();

            List<Integer> exitCodes =
                    List.of(first.process().exitValue(), second.process().exitValue());
            assertThat(exitCodes).as("one run finishes, the other is refused").containsExactlyInAnyOrder(0, 2);
            ChildProcess refused = first.process().exitValue() == 2 ? first : second;
            assertThat(refused.output())
                    .contains("another start of this job", "kafka.transactional-id-prefix 'twice'")
                    .doesNotContain("resuming from");
            Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, "descriptors", base).assertExactlyOnceAndByteExact(WORKLOAD, all);
            assertThat(KAFKA.drainCommitted("dead-letters")).as("dead letters").isEmpty();
        } catch (AssertionError | Exception e) {
            ChildProcess.printOutputs(first, second);
            throw e;
        } finally {
            ChildProcess.destroyAll(first, second);
        }
    }

    private List<String> command(Path base, String checkpoints) {
        List<String> run = new ArrayList<>(
                ChildProcess.runCommand(KAFKA, "twice", base, PARTITIONS, "1s", dir.resolve(checkpoints)));
        run.add("--bounded");
        return run;
    }
}
