package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.IngestJob;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.sink.RollPolicy;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.common.IsolationLevel;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Restores that go back behind what the job has already delivered: a second
 * resume from one savepoint, and a resume from an older retained checkpoint. Each would deliver
 * again every descriptor delivered after that checkpoint: the sets in its committer state, and
 * the input replayed from its offsets. The sink refuses such a restore by default
 * ({@code sink.raw-pack.allow-older-restore}); afterwards every input is exactly once.
 */
class OlderRestoreITCase {

    private static final int PARTITIONS = JobTestEnvironment.PARTITIONS;
    private static final TestWorkload WORKLOAD = new TestWorkload(31, 400);
    private static final int FIRST_RUN = 200;
    private static final Duration DEADLINE = Duration.ofMinutes(3);
    private static final String REFUSAL = "is older than what this job has already delivered";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    enum Restore {
        TWICE_FROM_ONE_SAVEPOINT,
        FROM_AN_OLDER_RETAINED_CHECKPOINT
    }

    static Stream<Arguments> restores() {
        return Arrays.stream(Restore.values())
                .flatMap(restore -> Arrays.stream(RollPolicy.values()).map(policy -> Arguments.of(restore, policy)));
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("restores")
    void aRestoreBehindWhatWasDeliveredIsRefusedAndNothingIsDeliveredTwice(
            Restore restore, RollPolicy policy, @TempDir Path dir) throws Exception {
        String runId = UUID.randomUUID().toString();
        String inputTopic = "blobs-" + runId;
        String descriptorTopic = "descriptors-" + runId;
        String deadLetterTopic = "dead-letters-" + runId;
        KAFKA.createTopic(inputTopic, PARTITIONS);
        KAFKA.createTopic(descriptorTopic, 1);
        KAFKA.createTopic(deadLetterTopic, 1);
        Path base = dir.resolve("base");
        Path checkpoints = dir.resolve("checkpoints");
        Configuration config =
                JobTestEnvironment.jobConfiguration(KAFKA, runId, policy, descriptorTopic, deadLetterTopic, base);
        config.set(BlobKafkaOptions.INPUT_TOPIC, inputTopic);
        config.set(BlobKafkaOptions.BOUNDED, false);
        config.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        config.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        config.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, 1000);
        WORKLOAD.send(KAFKA, inputTopic, PARTITIONS, 0, FIRST_RUN);

        JobClient first = start(config);
        KAFKA.awaitRecords(
                descriptorTopic,
                IsolationLevel.READ_COMMITTED,
                restore == Restore.TWICE_FROM_ONE_SAVEPOINT ? FIRST_RUN / 2 : FIRST_RUN,
                DEADLINE);
        String restorePoint;
        if (restore == Restore.TWICE_FROM_ONE_SAVEPOINT) {
            restorePoint = first.stopWithSavepoint(
                            false, dir.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
                    .get();
            first.getJobExecutionResult().get();
            WORKLOAD.send(KAFKA, inputTopic, PARTITIONS, FIRST_RUN, WORKLOAD.count());
            runBounded(config, restorePoint);
        } else {
            first.cancel().get();
            restorePoint = oldestRetainedCheckpoint(checkpoints).toUri().toString();
            WORKLOAD.send(KAFKA, inputTopic, PARTITIONS, FIRST_RUN, WORKLOAD.count());
            // The latest checkpoint: a restore that must go on (and deliver the second half).
            runBounded(config, latestRetainedCheckpoint(checkpoints).toUri().toString());
        }

        Throwable refused = null;
        try {
            runBounded(config, restorePoint);
        } catch (Exception e) {
            refused = e;
        }

        Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
        PipelineOutput.read(KAFKA, descriptorTopic, base).assertExactlyOnceAndByteExact(WORKLOAD, all);
        assertThat(refused).as("the restore from %s is refused", restorePoint).isNotNull();
        assertThat(refused)
                .hasStackTraceContaining(REFUSAL)
                .hasStackTraceContaining("sink.raw-pack.allow-older-restore");
    }

    private static JobClient start(Configuration config) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        IngestJob.build(env, config);
        return env.executeAsync("older restore, first run");
    }

    private static void runBounded(Configuration config, String restorePoint) throws Exception {
        Configuration resumed = new Configuration(config);
        resumed.set(BlobKafkaOptions.BOUNDED, true);
        resumed.set(StateRecoveryOptions.SAVEPOINT_PATH, restorePoint);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(resumed);
        IngestJob.build(env, resumed);
        env.execute("resumed from " + restorePoint);
    }

    private static Path oldestRetainedCheckpoint(Path checkpoints) throws IOException {
        return retainedCheckpoints(checkpoints)
                .min(Comparator.comparingLong(OlderRestoreITCase::checkpointId))
                .orElseThrow();
    }

    private static Path latestRetainedCheckpoint(Path checkpoints) throws IOException {
        return retainedCheckpoints(checkpoints)
                .max(Comparator.comparingLong(OlderRestoreITCase::checkpointId))
                .orElseThrow();
    }

    /** {@code <dir>/<job id>/chk-<n>} with a {@code _metadata} file. */
    private static Stream<Path> retainedCheckpoints(Path checkpoints) throws IOException {
        try (Stream<Path> walk = Files.walk(checkpoints, 2)) {
            return walk
                    .filter(p -> p.getFileName().toString().startsWith("chk-"))
                    .filter(p -> Files.exists(p.resolve("_metadata")))
                    .toList()
                    .stream();
        }
    }

    private static long checkpointId(Path checkpoint) {
        return Long.parseLong(checkpoint.getFileName().toString().substring("chk-".length()));
    }
}
