package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.IngestJob;
import io.blobingest.job.testing.FailOncePassThrough;
import io.blobingest.job.testing.FencingDescriptorSink;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.kafka.BlobKafkaConnectors;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.kafka.DescriptorKafkaSink;
import io.blobingest.lance.LanceOutputOptions;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.sink.BlobTypes;
import io.blobingest.sink.DescriptorOutput;
import io.blobingest.sink.Failures;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.RollPolicy;
import io.blobingest.storage.testing.S3ServerExtension;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The real job on a real broker with the Lance output ({@code sink.lance.dataset-uri}), on local
 * disk and on the S3 server, through injected failures and a restore; afterwards the dataset is
 * read with Lance's Java SDK alone: one row per input, every blob through {@code takeBlobs}
 * byte-exact and crc32c equal, no job/checkpoint id on two transactions.
 *
 * <ul>
 *   <li>A failure mid pack write in a first, unbounded run, which is then cancelled (its
 *       checkpoints retained) and started again from its latest retained checkpoint, as a plain
 *       restart does: the restored Lance committer holds the first job's pending commits under its
 *       job id, some of them possibly committed already.
 *   <li>A failure right after the Lance committer committed a checkpoint, before the next one: the
 *       restore hands it that checkpoint's pending commit again, which it must recognise.
 *   <li>A descriptor transaction aborted after its sets were committed: the emitter sends those
 *       sets to the descriptor topic again, and the Lance output, which committed them with its own
 *       transactions, must not get them twice.
 * </ul>
 */
class LanceOutputITCase {

    private static final int PARTITIONS = JobTestEnvironment.PARTITIONS;
    /** The placement boundaries (5-20 MiB segments), Packed frames and Inline packets. */
    private static final TestWorkload WORKLOAD = new TestWorkload(14, 1_200);

    private static final int FIRST_RUN = 600;
    private static final long FAIL_AFTER_BLOBS_PER_SUBTASK = FIRST_RUN / (3L * PARTITIONS);
    private static final Duration DEADLINE = Duration.ofMinutes(3);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension("blob-ingest-lance");

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    /** Where the dataset and the blob base live. */
    enum Storage {
        LOCAL,
        S3
    }

    /** What goes wrong in a one-run test. */
    enum Failure {
        /** Right after the Lance committer committed a checkpoint, before the next checkpoint. */
        AFTER_LANCE_COMMIT,
        /** The descriptor topic's transaction of committed sets is fenced on the broker. */
        DESCRIPTOR_TRANSACTION_LOST
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Storage.class)
    void everyInputIsOneLanceRowAcrossAFailureAndARestoreFromTheRetainedCheckpoint(Storage storage, @TempDir Path dir)
            throws Exception {
        Run run = new Run(storage, dir);
        Configuration config = run.configuration();
        config.set(BlobKafkaOptions.BOUNDED, false);
        config.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                dir.resolve("checkpoints").toUri().toString());
        config.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        WORKLOAD.send(KAFKA, run.inputTopic, PARTITIONS, 0, FIRST_RUN);
        Failures.arm(run.runId, Failures.Point.MID_PACK_WRITE);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        IngestJob.build(env, config, new FailMidPackWrite(run.runId));
        JobClient first = env.executeAsync("lance output on " + storage + ", first run");
        awaitFailureAndLanceRows(run, FIRST_RUN / 2);
        first.cancel().get();
        WORKLOAD.send(KAFKA, run.inputTopic, PARTITIONS, FIRST_RUN, WORKLOAD.count());

        Configuration resumed = new Configuration(config);
        resumed.set(BlobKafkaOptions.BOUNDED, true);
        resumed.set(StateRecoveryOptions.SAVEPOINT_PATH, latestRetainedCheckpoint(dir.resolve("checkpoints")));
        StreamExecutionEnvironment second = StreamExecutionEnvironment.getExecutionEnvironment(resumed);
        IngestJob.build(second, resumed, new FailMidPackWrite(run.runId));
        second.execute("lance output on " + storage + ", restored from the retained checkpoint");

        assertThat(FailOncePassThrough.restoredSubtasks(run.runId))
                .as("subtasks restored from a checkpoint")
                .isPositive();
        assertEveryInputOnceAndByteExact(run.datasetUri, run.storageOptions(), WORKLOAD.count());
        assertThat(committingJobs(run))
                .as("jobs whose checkpoints the dataset holds: the first and the restored one")
                .hasSizeGreaterThanOrEqualTo(2);
        if (storage == Storage.LOCAL) {
            assertThat(directorySize(Path.of(run.datasetUri)))
                    .as(
                            "the dataset holds the Inline bytes and metadata, not the %d bytes of the workload",
                            WORKLOAD.totalBytes())
                    .isLessThan(inlineBytes(WORKLOAD.count()) + 4 * TestWorkload.MIB);
        } else {
            assertThat(S3.objectKeys(run.runId + "/robots.lance/"))
                    .as("no sidecar was copied into the dataset")
                    .noneMatch(key -> key.endsWith(".blob"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Failure.class)
    void everyInputIsOneLanceRowAfterAFailure(Failure failure, @TempDir Path dir) throws Exception {
        Run run = new Run(Storage.LOCAL, dir);
        Configuration config = run.configuration();
        WORKLOAD.send(KAFKA, run.inputTopic, PARTITIONS, 0, FIRST_RUN);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        IngestJob.build(
                env,
                config,
                new InjectedFailure(
                        run.runId,
                        failure,
                        run.datasetUri,
                        BlobKafkaConnectors.fromConfig(config).adminProperties()));
        env.execute("lance output, " + failure);

        if (failure == Failure.AFTER_LANCE_COMMIT) {
            assertThat(FailAfterLanceCommit.checkpointCommittedBeforeFailure(run.runId))
                    .as("the injected failure struck after a Lance commit")
                    .isPresent();
        } else {
            assertThat(FencingDescriptorSink.fenced(run.runId))
                    .as("a descriptor transaction was fenced")
                    .isNotNull();
            Set<Integer> all = IntStream.range(0, FIRST_RUN).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, run.descriptorTopic, run.localBase)
                    .assertExactlyOnceAndByteExact(new TestWorkload(WORKLOAD.seed(), FIRST_RUN), all);
        }
        assertEveryInputOnceAndByteExact(run.datasetUri, Map.of(), FIRST_RUN);
    }

    /** Until the injected failure struck and the dataset holds {@code rows} rows. */
    private static void awaitFailureAndLanceRows(Run run, long rows) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        long found = 0;
        while (!Failures.fired(run.runId, Failures.Point.MID_PACK_WRITE) || (found = lanceRows(run)) < rows) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("expected the injected failure and " + rows + " rows in " + run.datasetUri
                        + " within " + DEADLINE + "; failure struck: "
                        + Failures.fired(run.runId, Failures.Point.MID_PACK_WRITE) + ", rows: " + found);
            }
            Thread.sleep(200);
        }
    }

    private static long lanceRows(Run run) {
        try {
            return LanceDatasetRows.count(run.datasetUri, run.storageOptions());
        } catch (RuntimeException notCreatedYet) {
            return 0;
        }
    }

    static String latestRetainedCheckpoint(Path checkpoints) throws IOException {
        try (Stream<Path> walk = Files.walk(checkpoints, 2)) {
            return walk.filter(p -> p.getFileName().toString().startsWith("chk-"))
                    .filter(p -> Files.exists(p.resolve("_metadata")))
                    .max(Comparator.comparingLong(
                            p -> Long.parseLong(p.getFileName().toString().substring(4))))
                    .orElseThrow(() -> new AssertionError("no retained checkpoint under " + checkpoints))
                    .toUri()
                    .toString();
        }
    }

    private static long inlineBytes(int count) {
        return LongStream.range(0, count)
                .map(i -> WORKLOAD.size((int) i))
                .filter(size -> size <= 64 * TestWorkload.KIB)
                .sum();
    }

    /** Reads the dataset through Lance's Java SDK only. */
    private static void assertEveryInputOnceAndByteExact(String uri, Map<String, String> storageOptions, int count)
            throws Exception {
        assertEveryInputOnceAndByteExact(WORKLOAD, uri, storageOptions, count);
    }

    /**
     * One row per input of {@code workload}'s first {@code count}, every blob through {@code
     * takeBlobs} byte-exact with its key and crc32c, no job/checkpoint id on two transactions.
     */
    static void assertEveryInputOnceAndByteExact(
            TestWorkload workload, String uri, Map<String, String> storageOptions, int count) throws Exception {
        LanceDatasetRows.assertOneRowPerInput(
                workload, IntStream.range(0, count).boxed().collect(Collectors.toSet()), uri, storageOptions);
        assertEachCheckpointCommittedOnce(uri, storageOptions);
    }

    /** The job and checkpoint ids that the dataset's transactions carry, none twice. */
    static void assertEachCheckpointCommittedOnce(String uri, Map<String, String> storageOptions) {
        assertThat(LanceDatasetRows.commits(uri, storageOptions))
                .as("Lance transactions by job/checkpoint")
                .isNotEmpty()
                .doesNotHaveDuplicates();
    }

    private static Set<String> committingJobs(Run run) {
        return LanceDatasetRows.commits(run.datasetUri, run.storageOptions()).stream()
                .map(commit -> commit.substring(0, commit.indexOf('/')))
                .collect(Collectors.toSet());
    }

    private static long directorySize(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(file -> file.toFile().length())
                    .sum();
        }
    }

    /** One test's topics, base and dataset, on local disk or on the S3 server. */
    private static final class Run {

        final Storage storage;
        final String runId = UUID.randomUUID().toString();
        final String inputTopic = "blobs-" + runId;
        final String descriptorTopic = "descriptors-" + runId;
        final String deadLetterTopic = "dead-letters-" + runId;
        final Path localBase;
        final String base;
        final String datasetUri;

        Run(Storage storage, Path dir) throws Exception {
            this.storage = storage;
            KAFKA.createTopic(inputTopic, PARTITIONS);
            KAFKA.createTopic(descriptorTopic, 1);
            KAFKA.createTopic(deadLetterTopic, 1);
            localBase = dir.resolve("base");
            if (storage == Storage.S3) {
                S3.initializeFlinkFileSystems();
                base = S3.uri(runId + "/base").toString();
                datasetUri = S3.uri(runId + "/robots.lance").toString();
            } else {
                base = localBase.toUri().toString();
                datasetUri = dir.resolve("robots.lance").toString();
            }
        }

        Configuration configuration() {
            Configuration config = JobTestEnvironment.jobConfiguration(
                    KAFKA, runId, RollPolicy.ON_CHECKPOINT, descriptorTopic, deadLetterTopic, localBase);
            config.set(BlobKafkaOptions.INPUT_TOPIC, inputTopic);
            config.set(BlobKafkaOptions.GROUP_ID, "lance-" + runId);
            config.set(RawPackSinkOptions.BASE_PATH, base);
            config.set(LanceOutputOptions.DATASET_URI, datasetUri);
            if (storage == Storage.S3) {
                config.addAll(S3.flinkConfiguration());
            }
            return config;
        }

        /** What a reader passes to Lance to reach the dataset: nothing locally, the server's address and keys on S3. */
        Map<String, String> storageOptions() {
            if (storage == Storage.LOCAL) {
                return Map.of();
            }
            return LanceDatasetRows.storageOptions(S3);
        }
    }

    /** Fails once in front of the Raw Pack sink, while packs are being written. */
    record FailMidPackWrite(String runId) implements IngestJob.Hooks {

        @Override
        public DataStream<PlacedBlob> beforeSink(DataStream<PlacedBlob> placed) {
            return placed.map(
                            new FailOncePassThrough(runId, Failures.Point.MID_PACK_WRITE, FAIL_AFTER_BLOBS_PER_SUBTASK),
                            BlobTypes.PLACED_BLOB)
                    .name("Pass through, fail once mid pack write")
                    .uid("fail-once-pass-through");
        }
    }

    private record InjectedFailure(String runId, Failure failure, String datasetUri, Properties adminProperties)
            implements IngestJob.Hooks {

        @Override
        public Sink<DescriptorRow> descriptorSink(DescriptorKafkaSink sink) {
            return failure == Failure.DESCRIPTOR_TRANSACTION_LOST
                    ? new FencingDescriptorSink(
                            sink,
                            adminProperties,
                            runId,
                            FencingDescriptorSink.When.BEFORE_ITS_COMMIT,
                            FencingDescriptorSink.Then.GO_ON)
                    : sink;
        }

        @Override
        public DescriptorOutput descriptorOutput(DescriptorOutput output) {
            return failure == Failure.AFTER_LANCE_COMMIT ? new FailAfterLanceCommit(output, runId, datasetUri) : output;
        }
    }
}
