package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.job.IngestJob;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flink stop --drain} on the real job and a real broker. Flink stops the periodic
 * checkpoints, sends {@code MAX_WATERMARK} and the end of input, and takes a synchronous savepoint
 * as the job's last checkpoint: it seals and commits the last blob set, and the descriptors its
 * notification emits would land in a transaction no checkpoint commits (they commit one checkpoint
 * after their set). The job refuses that savepoint instead: the stop fails, the job fails over and
 * goes on with nothing committed; a stop without drain then takes a savepoint, and a bounded job
 * resumed from it delivers every input exactly once. No periodic checkpoint interferes (a
 * three-minute interval), so all that is committed is committed by the stops and the resumed job.
 */
class StopWithDrainITCase {

    private static final int PARTITIONS = 2;
    private static final TestWorkload WORKLOAD = new TestWorkload(61, 600);
    /** A guard against a hang, generous for a loaded machine; not a measure of speed. */
    private static final Duration DEADLINE = Duration.ofMinutes(3);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    @TempDir
    Path dir;

    @Test
    void stopWithDrainIsRefusedWithoutLosingDescriptorsAndAStopWithoutDrainResumesExactlyOnce(
            @InjectClusterClient ClusterClient<?> client) throws Exception {
        KAFKA.createTopic("blobs", PARTITIONS);
        KAFKA.createTopic("descriptors", 1);
        KAFKA.createTopic("dead-letters", 1);
        Path base = dir.resolve("base");
        String savepoints = dir.resolve("savepoints").toUri().toString();
        WORKLOAD.send(KAFKA, "blobs", PARTITIONS, 0, WORKLOAD.count());

        Configuration unbounded = configuration(base, Duration.ofMinutes(3));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(unbounded);
        IngestJob.build(env, unbounded);
        JobID job = env.executeAsync("stop-with-drain").getJobID();
        awaitBlobsInProgress(base);

        assertThatThrownBy(() -> client.stopWithSavepoint(job, true, savepoints, SavepointFormatType.CANONICAL)
                        .get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS))
                .as("stop with drain")
                .isInstanceOf(ExecutionException.class)
                .hasStackTraceContaining("stop with --drain cannot deliver the descriptors of the last blob set");
        PipelineOutput refused = PipelineOutput.read(KAFKA, "descriptors", base);
        assertThat(refused.manifestRows)
                .as("blob sets committed by the refused drain")
                .isEmpty();
        assertThat(refused.descriptors)
                .as("descriptors committed by the refused drain")
                .isEmpty();

        String savepoint = stopWithoutDrain(client, job, savepoints);
        Configuration resumed = configuration(base, Duration.ofMillis(500));
        resumed.set(BlobKafkaOptions.BOUNDED, true);
        resumed.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        StreamExecutionEnvironment resumedEnv = StreamExecutionEnvironment.getExecutionEnvironment(resumed);
        IngestJob.build(resumedEnv, resumed);
        resumedEnv.execute("resumed from the stop's savepoint");

        Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
        PipelineOutput.read(KAFKA, "descriptors", base).assertExactlyOnceAndByteExact(WORKLOAD, all);
        assertThat(KAFKA.drainCommitted("dead-letters")).as("dead letters").isEmpty();
        StoredBlobs stored = new StoredBlobs(base);
        stored.assertOnlyCommittedFilesAreVisible(stored.committedManifests());
    }

    /**
     * Stops the job, failed over after the refused drain, with a savepoint; retried while its tasks
     * are still being deployed again (a savepoint needs them all running).
     */
    private static String stopWithoutDrain(ClusterClient<?> client, JobID job, String savepoints) throws Exception {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            try {
                return client.stopWithSavepoint(job, false, savepoints, SavepointFormatType.CANONICAL)
                        .get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                assertThat(client.getJobStatus(job).get())
                        .as("status of the job after the refused drain")
                        .isIn(JobStatus.RUNNING, JobStatus.RESTARTING);
                Thread.sleep(500);
            }
        }
    }

    private static Configuration configuration(Path base, Duration checkpointInterval) {
        Configuration config = new Configuration();
        config.set(BlobKafkaOptions.BOOTSTRAP_SERVERS, KAFKA.bootstrapServers());
        config.set(BlobKafkaOptions.INPUT_TOPIC, "blobs");
        config.set(BlobKafkaOptions.DESCRIPTOR_TOPIC, "descriptors");
        config.set(BlobKafkaOptions.DEAD_LETTER_TOPIC, "dead-letters");
        config.set(BlobKafkaOptions.GROUP_ID, "stop-with-drain");
        config.set(RawPackSinkOptions.BASE_PATH, base.toUri().toString());
        config.set(CoreOptions.DEFAULT_PARALLELISM, PARTITIONS);
        config.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, checkpointInterval);
        // Long enough a transaction for the long interval; short checkpoint timeouts keep it valid.
        config.set(CheckpointingOptions.CHECKPOINTING_TIMEOUT, Duration.ofMinutes(2));
        // Copies of Dedicated blobs (none here) must fit that timeout, one per fetch in flight.
        config.set(RawPackSinkOptions.EXTERNAL_COPY_TIMEOUT, Duration.ofSeconds(20));
        config.set(BlobKafkaOptions.TRANSACTION_TIMEOUT, Duration.ofMinutes(14));
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
        return config;
    }

    /** Waits until the job has written blob bytes (hidden in-progress files): it is reading input. */
    /**
     * Until every subtask has written a blob under {@code base}, so every task is running: the
     * emitter's record of the descriptor topic under {@code _delivered} comes before any blob, and a
     * stop triggered while a subtask still starts is refused for that reason alone.
     */
    private static void awaitBlobsInProgress(Path base) throws Exception {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (subtasksWritingBlobs(base) < PARTITIONS) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not every subtask wrote a blob under " + base + " within " + DEADLINE);
            }
            Thread.sleep(200);
        }
    }

    /** The subtasks with a file in a blob set directory: {@code <run>-<subtask>-<n>}. */
    private static long subtasksWritingBlobs(Path base) throws Exception {
        if (!Files.isDirectory(base)) {
            return 0;
        }
        Pattern blobSet = Pattern.compile("[0-9a-f]{32}-(\\d+)-\\d+");
        try (Stream<Path> files = Files.walk(base)) {
            return files.filter(Files::isRegularFile)
                    .map(file -> blobSet.matcher(file.getParent().getFileName().toString()))
                    .filter(Matcher::matches)
                    .map(matcher -> matcher.group(1))
                    .distinct()
                    .count();
        }
    }
}
