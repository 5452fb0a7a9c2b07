package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The same {@code run --bounded} command run again over more input (spec.md section 6.5, "Lineage"): the
 * first run finishes and leaves its delivery markers at the epochs of its last checkpoints; the
 * second starts without restored state, so its checkpoint ids begin at 1 again, and fails once
 * inside the running job after its first checkpoints (Flink restores that latest checkpoint). The
 * earlier run's markers are no proof of an older restore: the second run must finish, exit 0,
 * and every input of both batches must be exactly once in the descriptor topic and the
 * manifests, byte-exact. Also with {@code --fresh} and with a lower parallelism on the second run.
 */
class RerunITCase {

    private static final int PARTITIONS = 2;
    private static final TestWorkload WORKLOAD = new TestWorkload(47, 700);
    private static final int FIRST_RUN = 400;
    /** The second run fails on the notification of this checkpoint, and restores it. */
    private static final long FAIL_AT_CHECKPOINT = 1;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    enum Rerun {
        /** The same command again. */
        SAME_COMMAND,
        /** The same command with {@code --fresh}. */
        FRESH,
        /** The same command at parallelism 1: the first run's subtask 1 has no successor. */
        LOWER_PARALLELISM,
        /**
         * The same command, the Kafka source committing no offsets ({@code commit.offsets.on.checkpoint:
         * false}): as if the commits of a run's last checkpoints never landed before it ended, which a
         * loaded machine showed. The launcher moves the group to where the run stopped.
         */
        SOURCE_COMMITS_LOST
    }

    @ParameterizedTest
    @EnumSource(Rerun.class)
    void theSameCommandRunAgainFailsOverInsideTheJobAndDeliversEveryInputOnce(Rerun rerun, @TempDir Path dir)
            throws Exception {
        String runId = UUID.randomUUID().toString();
        String inputTopic = "blobs-" + runId;
        String descriptorTopic = "descriptors-" + runId;
        String deadLetterTopic = "dead-letters-" + runId;
        KAFKA.createTopic(inputTopic, PARTITIONS);
        KAFKA.createTopic(descriptorTopic, 1);
        KAFKA.createTopic(deadLetterTopic, 1);
        Path base = dir.resolve("base");
        List<String> command = TestEnvironment.runArguments(KAFKA, inputTopic, descriptorTopic, deadLetterTopic, base)
                .groupId("rerun-" + runId)
                .checkpointInterval("200ms")
                .checkpointDir(dir.resolve("checkpoints"))
                .bounded()
                .set("restart-strategy.fixed-delay.attempts", 3)
                .set("restart-strategy.fixed-delay.delay", "200ms")
                .toList();
        if (rerun == Rerun.SOURCE_COMMITS_LOST) {
            command.addAll(List.of("-D", "kafka.properties.commit.offsets.on.checkpoint=false"));
        }

        WORKLOAD.send(KAFKA, inputTopic, PARTITIONS, 0, FIRST_RUN);
        RunResult first = run(command, "--parallelism", Integer.toString(PARTITIONS));
        assertThat(first.exitCode()).as(first.output()).isZero();
        assertThat(highestMarkerEpoch(base).orElse(0))
                .as("the first run's delivery markers are above the checkpoint the second run restores")
                .isGreaterThan(FAIL_AT_CHECKPOINT);

        WORKLOAD.send(KAFKA, inputTopic, PARTITIONS, FIRST_RUN, WORKLOAD.count());
        List<String> again = new ArrayList<>(List.of(
                "--parallelism",
                rerun == Rerun.LOWER_PARALLELISM ? "1" : Integer.toString(PARTITIONS),
                "-D",
                FailOnceAtCheckpointOutput.option(runId, FAIL_AT_CHECKPOINT)));
        if (rerun == Rerun.FRESH) {
            again.add("--fresh");
        }
        RunResult second = run(command, again.toArray(String[]::new));

        assertThat(FailOnceAtCheckpointOutput.fired(runId))
                .as("the second run failed once inside the job")
                .isTrue();
        assertThat(second.exitCode()).as(second.output()).isZero();
        Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
        PipelineOutput.read(KAFKA, descriptorTopic, base).assertExactlyOnceAndByteExact(WORKLOAD, all);
        assertThat(KAFKA.drainCommitted(deadLetterTopic)).as("dead letters").isEmpty();
    }

    private static RunResult run(List<String> command, String... more) {
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of(more));
        return TestEnvironment.runCli(args.toArray(String[]::new));
    }

    /** The highest epoch of the delivery markers {@code <epoch>-<subtask>} anywhere under {@code <base>/_delivered}. */
    private static OptionalLong highestMarkerEpoch(Path base) throws IOException {
        try (Stream<Path> files = Files.walk(base.resolve("_delivered"))) {
            return files.filter(Files::isRegularFile)
                    .map(file -> file.getFileName().toString())
                    .filter(name -> name.matches("\\d+-\\d+"))
                    .mapToLong(name -> Long.parseLong(name.substring(0, name.indexOf('-'))))
                    .max();
        }
    }
}
