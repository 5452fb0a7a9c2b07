package io.blobingest.cli.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.BackfillJob;
import io.blobingest.job.IngestJob;
import io.blobingest.job.IngestJobOptions;
import io.blobingest.job.launch.RetainedCheckpoints;
import io.blobingest.job.testing.FailOncePassThrough;
import io.blobingest.job.testing.FencingDescriptorSink;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.kafka.BlobKafkaConnectors;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.kafka.DescriptorKafkaSink;
import io.blobingest.kafka.DescriptorRecords;
import io.blobingest.lance.LanceOutputOptions;
import io.blobingest.objectlayer.BlobFeatures;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.sink.BlobTypes;
import io.blobingest.sink.Failures;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lance.JniLoader;

/**
 * {@code backfill} on local disk, against a real broker and Flink's MiniCluster: an old base made
 * by {@code run} (see {@link BackfillFixture}) is backfilled from its manifests through the
 * command line, through the topology with a failure injected mid-backfill, and through a run that
 * dies and is resumed from its retained checkpoint with {@code --resume}; each time every External
 * row ends exactly once as byte-exact owned bytes and every other row exactly once unchanged. The
 * topic form ({@code --input-topic --bounded}) ingests reference-mode records.
 */
class BackfillITCase {

    private static final int PARTITIONS = BackfillFixture.PARTITIONS;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    @TempDir
    static Path shared;

    private static BackfillFixture fixture;

    @TempDir
    Path dir;

    @BeforeAll
    static void makeOldBase() throws Exception {
        fixture = BackfillFixture.make(KAFKA, "old", shared.resolve("old-base").toUri(), shared.resolve("external"));
    }

    @Test
    void everyExternalRowIsIngestedOnceAndEveryOtherRowPassesThroughUnchanged() throws Exception {
        createTopics("cli");
        Path base = dir.resolve("new-base");

        RunResult run = backfill("cli", base, "--from", fixture.manifests().toString());

        assertThat(run.exitCode()).as(run.output()).isZero();
        long external = fixture.oldRows.stream()
                .filter(row -> row.blob().kind() == BlobKind.EXTERNAL)
                .count();
        assertThat(run.output())
                .contains("backfill summary: " + external + " re-entered, " + (fixture.oldRows.size() - external)
                        + " passed through");
        assertThat(run.output()).contains("dead letters 1: not-found 1");
        fixture.assertBackfilled(KAFKA, "cli-descriptors", "cli-dead-letters", base.toUri(), new LocalBlobStorage());
        assertPacksVerify(base);
    }

    /**
     * A backfill is bounded; with {@code within-job} sharing its re-entered blobs cross a network hop
     * to their writers, and the end of its input is held in front of that hop (DescriptorDrainOperator).
     * Before, the sink refused within-job for a backfill.
     */
    @Test
    void aBackfillWithinJobSharingEndsWithEveryRowOnce() throws Exception {
        createTopics("within-job");
        Path base = dir.resolve("new-base");

        RunResult run = backfill(
                "within-job",
                base,
                "--from",
                fixture.manifests().toString(),
                "-D",
                "sink.raw-pack.exact-sharing=within-job");

        assertThat(run.exitCode()).as(run.output()).isZero();
        fixture.assertBackfilled(
                KAFKA, "within-job-descriptors", "within-job-dead-letters", base.toUri(), new LocalBlobStorage());
        assertPacksVerify(base);
    }

    @Test
    void aFailureMidBackfillLosesAndDuplicatesNothing() throws Exception {
        String runId = UUID.randomUUID().toString();
        createTopics("failover");
        Path base = dir.resolve("new-base");
        Configuration config = jobConfiguration("failover", base);

        backfillFailingOnceMidPackWrite(runId, config);

        fixture.assertBackfilled(
                KAFKA, "failover-descriptors", "failover-dead-letters", base.toUri(), new LocalBlobStorage());
        assertPacksVerify(base);
        StoredBlobs stored = new StoredBlobs(base);
        stored.assertOnlyCommittedFilesAreVisible(stored.committedManifests());
    }

    @Test
    void aBackfillIntoALanceDatasetHasOneRowPerManifestRowAcrossAFailure() throws Exception {
        String runId = UUID.randomUUID().toString();
        createTopics("lance");
        Path base = dir.resolve("new-base");
        Path dataset = dir.resolve("robots.lance");
        Configuration config = jobConfiguration("lance", base);
        config.set(LanceOutputOptions.DATASET_URI, dataset.toString());
        // Lance loads its natives once per JVM (a 181 MB copy first): done here, the first checkpoint
        // the injected failure waits for comes before this small backfill's input runs out.
        JniLoader.ensureLoaded();

        backfillFailingOnceMidPackWrite(runId, config);

        fixture.assertBackfilled(
                KAFKA, "lance-descriptors", "lance-dead-letters", base.toUri(), new LocalBlobStorage());
        fixture.assertBackfilledIntoLance(dataset.toString());
        try (Stream<Path> files = Files.walk(dataset)) {
            assertThat(files.filter(Files::isRegularFile)
                            .mapToLong(file -> file.toFile().length())
                            .sum())
                    .as("bytes under the dataset: no pack or sidecar of the old base copied (one sidecar is 4 MiB)")
                    .isLessThan(4L * 1024 * 1024);
        }
    }

    /**
     * The sink of the passed-through rows had no delivery check, so a
     * transaction of them aborted after the checkpoint that closed it (fenced just before its
     * commit, as the broker's transaction timeout would) lost its rows without a word. Fenced just
     * after its commit, its rows must not be sent a second time. Either way, on the notification or,
     * after a failure during it, on restore.
     */
    @ParameterizedTest(name = "fenced {0}, then {1}")
    @MethodSource("io.blobingest.job.testing.FencingDescriptorSink#faults")
    void passedThroughRowsArriveExactlyOnceAlthoughTheirTransactionWasFenced(
            FencingDescriptorSink.When when, FencingDescriptorSink.Then then) throws Exception {
        String runId = UUID.randomUUID().toString();
        String name = "fenced-" + runId;
        createTopics(name);
        Path base = dir.resolve("new-base");
        Configuration config = jobConfiguration(name, base);
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        Properties adminProperties = BlobKafkaConnectors.sinksFromConfig(config).adminProperties();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        BackfillJob.build(env, config, new org.apache.flink.core.fs.Path(fixture.manifests()), new IngestJob.Hooks() {
            @Override
            public Sink<DescriptorRow> passedThroughDescriptorSink(DescriptorKafkaSink sink) {
                return new FencingDescriptorSink(sink, adminProperties, runId, when, then);
            }
        });
        env.execute("backfill with a passed-through transaction fenced " + when + ", then " + then);

        assertThat(FencingDescriptorSink.fenced(runId))
                .as("a transaction of passed-through rows was fenced")
                .isNotNull();
        fixture.assertBackfilled(
                KAFKA, name + "-descriptors", name + "-dead-letters", base.toUri(), new LocalBlobStorage());
    }

    @Test
    void aBackfillIntoALanceDatasetRefusesManifestsOutsideABasesDescriptorsDirectory() throws Exception {
        Path manifests = Files.createDirectories(dir.resolve("manifests"));
        Configuration config = jobConfiguration("lance-refused", dir.resolve("new-base"));
        config.set(LanceOutputOptions.DATASET_URI, dir.resolve("robots.lance").toString());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);

        assertThatThrownBy(() -> BackfillJob.build(
                        env, config, new org.apache.flink.core.fs.Path(manifests.toUri()), IngestJob.Hooks.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("give the manifests as <base>/_descriptors/ or one manifest in it")
                .hasMessageContaining(manifests.toString());
    }

    @Test
    void aBackfillThatDiedIsResumedFromItsLastCheckpointExactlyOnce() throws Exception {
        String runId = UUID.randomUUID().toString();
        createTopics("resume");
        Path base = dir.resolve("new-base");
        Path checkpoints = dir.resolve("checkpoints");
        Configuration config = jobConfiguration("resume", base);
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        config.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        config.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        // The command line's resume takes only checkpoints recorded under the backfill's lineage: the
        // same transactional id prefix ('resume'), given to it below.
        LineageRecord.writeFor(config);
        Failures.arm(runId, Failures.Point.MID_PACK_WRITE);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        BackfillJob.build(env, config, new org.apache.flink.core.fs.Path(fixture.manifests()), new FailOnce(runId));

        assertThatThrownBy(() -> env.execute("backfill that dies")).hasStackTraceContaining("injected test failure");
        assertThat(RetainedCheckpoints.latest(checkpoints.toUri()))
                .as("a retained checkpoint")
                .isPresent();

        RunResult resumed = backfill(
                "resume",
                base,
                "--from",
                fixture.manifests().toString(),
                "--checkpoint-dir",
                checkpoints.toString(),
                "--resume",
                "-D",
                BlobKafkaOptions.TRANSACTIONAL_ID_PREFIX.key() + "=resume");

        assertThat(resumed.exitCode()).as(resumed.output()).isZero();
        fixture.assertBackfilled(
                KAFKA, "resume-descriptors", "resume-dead-letters", base.toUri(), new LocalBlobStorage());
        assertPacksVerify(base);
    }

    @Test
    void theTopicFormIngestsReferenceModeRecords() throws Exception {
        createTopics("topic");
        KAFKA.createTopic("topic-refs", PARTITIONS);
        Path external = Files.createDirectories(dir.resolve("external"));
        Path file = Files.write(
                external.resolve("clip.bin"),
                "a clip of a robot arm".repeat(10_000).getBytes(UTF_8));
        byte[] carried = "carried bytes".getBytes(UTF_8);
        KAFKA.send(List.of(
                new ProducerRecord<>(
                        "topic-refs",
                        0,
                        "clip".getBytes(UTF_8),
                        null,
                        List.of(
                                new RecordHeader(
                                        "blob.uri", file.toUri().toString().getBytes(UTF_8)),
                                new RecordHeader("blob.mode", "reference".getBytes(UTF_8)),
                                new RecordHeader("camera", "wrist".getBytes(UTF_8)))),
                new ProducerRecord<>("topic-refs", 1, "carried".getBytes(UTF_8), carried, List.of())));
        Path base = dir.resolve("new-base");

        RunResult run = backfill(
                "topic",
                base,
                "--input-topic",
                "topic-refs",
                "--bounded",
                "-D",
                "external.allowed-prefixes=" + external.toUri());

        assertThat(run.exitCode()).as(run.output()).isZero();
        List<DescriptorRow> descriptors = KAFKA.drainCommitted("topic-descriptors").stream()
                .map(DescriptorRecords::parse)
                .toList();
        assertThat(descriptors).hasSize(2);
        DescriptorRow clip = descriptors.stream()
                .filter(r -> new String(r.key(), UTF_8).equals("clip"))
                .findFirst()
                .orElseThrow();
        assertThat(clip.blob().kind()).as("the reference, ingested").isEqualTo(BlobKind.PACKED);
        assertThat(clip.source()).isEqualTo("topic-refs/0/0");
        assertThat(clip.attributes()).extracting(DescriptorRow.Attribute::name).containsExactly("camera");
        try (ObjectLayer objectLayer =
                ObjectLayer.builder(new LocalBlobStorage()).build()) {
            List<byte[]> read = objectLayer.readAll(descriptors.stream()
                    .map(row -> BlobRequest.forRow(row, base.toUri(), BlobFeatures.ALL))
                    .toList());
            assertThat(read).containsExactlyInAnyOrder(Files.readAllBytes(file), carried);
        }
        assertThat(KAFKA.drainCommitted("topic-dead-letters")).isEmpty();
    }

    @Test
    void refusesBothFormsAtOnceAndNeither() {
        RunResult both = backfill(
                "usage", dir.resolve("b"), "--from", fixture.manifests().toString(), "--input-topic", "t");
        RunResult neither = backfill("usage", dir.resolve("b"));
        RunResult missing = backfill(
                "usage", dir.resolve("b"), "--from", dir.resolve("nothing").toString());

        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.output()).contains("exactly one of --from and --input-topic");
        assertThat(neither.exitCode()).isEqualTo(2);
        assertThat(neither.output()).contains("exactly one of --from and --input-topic");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.output()).contains("--from: no such file or directory");
    }

    @Test
    void aCorruptManifestFailsTheBackfillNamingTheFile() throws Exception {
        createTopics("corrupt");
        Path manifests = Files.createDirectories(dir.resolve("manifests"));
        Files.write(manifests.resolve("broken.arrow"), "not an arrow file".getBytes(UTF_8));

        RunResult run = backfill(
                "corrupt", dir.resolve("new-base"), "--from", manifests.toString(), "-D", "restart-strategy.type=none");

        assertThat(run.exitCode()).as(run.output()).isEqualTo(1);
        assertThat(run.output())
                .contains(manifests.resolve("broken.arrow").toString())
                .contains("not an Arrow IPC file");
    }

    private static RunResult backfill(String name, Path base, String... options) {
        List<String> args = new ArrayList<>(List.of(
                "backfill",
                "--bootstrap-servers",
                KAFKA.bootstrapServers(),
                "--descriptor-topic",
                name + "-descriptors",
                "--dlq-topic",
                name + "-dead-letters",
                "--base",
                base.toString(),
                "--parallelism",
                Integer.toString(PARTITIONS),
                "--checkpoint-interval",
                "1s",
                "-D",
                "external.allowed-prefixes=" + fixture.externalPrefix));
        args.addAll(List.of(options));
        return TestEnvironment.runCli(args.toArray(String[]::new));
    }

    private static void createTopics(String name) throws Exception {
        KAFKA.createTopic(name + "-descriptors", 1);
        KAFKA.createTopic(name + "-dead-letters", 1);
    }

    private static Configuration jobConfiguration(String name, Path base) {
        Configuration config = new Configuration();
        config.set(BlobKafkaOptions.BOOTSTRAP_SERVERS, KAFKA.bootstrapServers());
        config.set(BlobKafkaOptions.DESCRIPTOR_TOPIC, name + "-descriptors");
        config.set(BlobKafkaOptions.DEAD_LETTER_TOPIC, name + "-dead-letters");
        config.set(BlobKafkaOptions.TRANSACTIONAL_ID_PREFIX, name);
        config.set(RawPackSinkOptions.BASE_PATH, base.toUri().toString());
        config.set(IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES, List.of(fixture.externalPrefix));
        config.set(CoreOptions.DEFAULT_PARALLELISM, PARTITIONS);
        config.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
        return config;
    }

    /**
     * Backfills the fixture's manifests with {@code config}, a restart strategy and one failure
     * injected mid pack write after a checkpoint, which must strike and be restored from.
     */
    private static void backfillFailingOnceMidPackWrite(String runId, Configuration config) throws Exception {
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        Failures.arm(runId, Failures.Point.MID_PACK_WRITE);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        BackfillJob.build(env, config, new org.apache.flink.core.fs.Path(fixture.manifests()), new FailOnce(runId));
        env.execute("backfill failover");

        assertThat(Failures.fired(runId, Failures.Point.MID_PACK_WRITE))
                .as("the injected failure struck")
                .isTrue();
        assertThat(FailOncePassThrough.restoredSubtasks(runId))
                .as("subtasks restored from a checkpoint")
                .isPositive();
    }

    private static void assertPacksVerify(Path base) {
        RunResult verify = TestEnvironment.runCli("pack", "verify", base.toString());
        assertThat(verify.exitCode()).as(verify.output()).isZero();
        assertThat(verify.output()).contains(" 0 faults");
    }

    /** Fails the job once, while a pack is open, after a checkpoint has completed. */
    private record FailOnce(String runId) implements IngestJob.Hooks {
        @Override
        public DataStream<PlacedBlob> beforeSink(DataStream<PlacedBlob> placed) {
            return placed.map(new FailOncePassThrough(runId, Failures.Point.MID_PACK_WRITE, 5), BlobTypes.PLACED_BLOB)
                    .name("Pass through, fail once")
                    .uid("fail-once-pass-through");
        }
    }
}
