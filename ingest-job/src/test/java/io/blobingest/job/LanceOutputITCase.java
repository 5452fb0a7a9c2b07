package io.blobingest.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.kafka.BlobTypes;
import io.blobingest.kafka.testing.KafkaBrokerExtension;
import io.blobingest.lance.LanceOutputOptions;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.sink.DescriptorOutput;
import io.blobingest.sink.Failures;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.RollPolicy;
import io.blobingest.storage.testing.S3ServerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.lance.BlobFile;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Version;

/**
 * The real job on a real broker with the Lance output ({@code sink.lance.dataset-uri}) and one
 * injected failure, on local disk and on the S3 server; after {@code AFTER_LANCE_COMMIT} the
 * restart restores the Lance committer with the pending commit of a checkpoint whose transaction it
 * had already committed. Afterwards the dataset is read with
 * Lance's Java SDK alone: one row per input, every blob through {@code takeBlobs} byte-exact and
 * crc32c equal, and the dataset's files hold no more than the Inline bytes (the rest is referenced
 * in the Raw Packs and Dedicated sidecars).
 */
class LanceOutputITCase {

    private static final int PARTITIONS = 2;
    private static final String INPUT_TOPIC = "blobs";
    /** The placement boundaries (5-20 MiB segments), Packed frames and Inline packets. */
    private static final TestWorkload WORKLOAD = new TestWorkload(14, 2_000);
    private static final long FAIL_AFTER_BLOBS_PER_SUBTASK = WORKLOAD.count() / (3L * PARTITIONS);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension("blob-ingest-lance");

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(PARTITIONS)
                    .build());

    @BeforeAll
    static void produceWorkload() throws Exception {
        KAFKA.createTopic(INPUT_TOPIC, PARTITIONS);
        WORKLOAD.send(KAFKA, INPUT_TOPIC, PARTITIONS, 0, WORKLOAD.count());
    }

    /** Where the one failure of a run strikes. */
    enum Failure {
        /** In front of the Raw Pack sink, while packs are being written. */
        MID_PACK_WRITE,
        /** Right after the Lance committer committed a checkpoint, before the next checkpoint. */
        AFTER_LANCE_COMMIT
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Failure.class)
    void everyInputIsOneLanceRowWhoseBlobLanceReadsBackByteExactAfterAFailure(Failure failure, @TempDir Path dir)
            throws Exception {
        String runId = UUID.randomUUID().toString();
        String descriptorTopic = "descriptors-" + runId;
        String deadLetterTopic = "dead-letters-" + runId;
        KAFKA.createTopic(descriptorTopic, 1);
        KAFKA.createTopic(deadLetterTopic, 1);
        Path base = dir.resolve("base");
        Path dataset = dir.resolve("robots.lance");
        Configuration config = jobConfiguration(runId, descriptorTopic, deadLetterTopic, base.toUri().toString(), dataset.toString());
        if (failure == Failure.MID_PACK_WRITE) {
            Failures.arm(runId, Failures.Point.MID_PACK_WRITE);
        }

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        IngestJob.build(env, config, new InjectedFailure(runId, failure, dataset.toString()));
        env.execute("lance output " + failure);

        if (failure == Failure.MID_PACK_WRITE) {
            assertThat(Failures.fired(runId, Failures.Point.MID_PACK_WRITE)).as("the injected failure struck").isTrue();
        } else {
            assertThat(FailAfterLanceCommit.checkpointCommittedBeforeFailure(runId))
                    .as("the injected failure struck after a Lance commit").isPresent();
        }
        assertThat(FailOncePassThrough.restoredSubtasks(runId)).as("subtasks restored from a checkpoint").isPositive();
        assertEveryInputOnceAndByteExact(dataset.toString(), Map.of());
        assertEachCheckpointCommittedOnce(dataset.toString());
        long inlineBytes = LongStream.range(0, WORKLOAD.count())
                .map(i -> WORKLOAD.size((int) i))
                .filter(size -> size <= 64 * TestWorkload.KIB)
                .sum();
        assertThat(directorySize(dataset))
                .as("the dataset holds the Inline bytes and metadata, not the %d bytes of the workload", WORKLOAD.totalBytes())
                .isLessThan(inlineBytes + 4 * TestWorkload.MIB);
    }

    /**
     * The same on the S3 server: the blob base and the dataset both on s3://, Lance reaching them
     * with the storage options derived from the {@code s3.*} options, a failure mid pack write.
     */
    @Test
    void onS3EveryInputIsOneLanceRowWhoseBlobLanceReadsBackByteExactAfterAFailure(@TempDir Path dir) throws Exception {
        String runId = UUID.randomUUID().toString();
        String descriptorTopic = "descriptors-" + runId;
        String deadLetterTopic = "dead-letters-" + runId;
        KAFKA.createTopic(descriptorTopic, 1);
        KAFKA.createTopic(deadLetterTopic, 1);
        S3.initializeFlinkFileSystems();
        String dataset = S3.uri(runId + "/robots.lance").toString();
        Configuration config = jobConfiguration(runId, descriptorTopic, deadLetterTopic, S3.uri(runId + "/base").toString(), dataset);
        config.addAll(S3.flinkConfiguration());
        Failures.arm(runId, Failures.Point.MID_PACK_WRITE);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        IngestJob.build(env, config, new InjectedFailure(runId, Failure.MID_PACK_WRITE, dataset));
        env.execute("lance output on S3");

        assertThat(Failures.fired(runId, Failures.Point.MID_PACK_WRITE)).as("the injected failure struck").isTrue();
        Map<String, String> storageOptions = Map.of(
                "aws_endpoint", S3.endpoint().toString(),
                "allow_http", "true",
                "aws_access_key_id", S3ServerExtension.ACCESS_KEY,
                "aws_secret_access_key", S3ServerExtension.SECRET_KEY,
                "aws_virtual_hosted_style_request", "false");
        assertEveryInputOnceAndByteExact(dataset, storageOptions);
        assertThat(S3.objectKeys(runId + "/robots.lance/"))
                .as("no sidecar was copied into the dataset").noneMatch(key -> key.endsWith(".blob"));
    }

    /** Reads the dataset through Lance's Java SDK only. */
    private static void assertEveryInputOnceAndByteExact(String uri, Map<String, String> storageOptions) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = Dataset.open(allocator, uri, new ReadOptions.Builder().setStorageOptions(storageOptions).build())) {
            assertThat(dataset.countRows()).as("rows").isEqualTo(WORKLOAD.count());
            List<Long> indices = LongStream.range(0, WORKLOAD.count()).boxed().toList();
            Map<Integer, Long> crcBySeq = new HashMap<>();
            List<Integer> seqs = new ArrayList<>();
            List<byte[]> keys = new ArrayList<>();
            try (ArrowReader reader = dataset.take(indices, List.of("key", "crc32c", "attributes"))) {
                while (reader.loadNextBatch()) {
                    VectorSchemaRoot root = reader.getVectorSchemaRoot();
                    VarBinaryVector key = (VarBinaryVector) root.getVector("key");
                    UInt4Vector crc = (UInt4Vector) root.getVector("crc32c");
                    ListVector attributes = (ListVector) root.getVector("attributes");
                    for (int row = 0; row < root.getRowCount(); row++) {
                        int seq = seq(attributes, row);
                        seqs.add(seq);
                        keys.add(key.isNull(row) ? null : key.get(row));
                        assertThat(crcBySeq.put(seq, Integer.toUnsignedLong(crc.get(row))))
                                .as("input %d appears once", seq).isNull();
                    }
                }
            }
            assertThat(crcBySeq).hasSize(WORKLOAD.count());
            for (int i = 0; i < seqs.size(); i++) {
                int seq = seqs.get(i);
                byte[] read = readBlob(dataset, i);
                assertThat(read).as("blob of input %d", seq).isEqualTo(WORKLOAD.bytes(seq));
                assertThat(keys.get(i)).as("key of input %d", seq).isEqualTo(WORKLOAD.key(seq));
                CRC32C crc = new CRC32C();
                crc.update(read);
                assertThat(crcBySeq.get(seq)).as("crc32c of input %d", seq).isEqualTo(crc.getValue());
            }
        }
    }

    /** The job and checkpoint ids that the dataset's transactions carry, none twice. */
    private static void assertEachCheckpointCommittedOnce(String uri) {
        List<String> commits = new ArrayList<>();
        try (Dataset dataset = Dataset.open(uri)) {
            for (Version version : dataset.listVersions()) {
                try (Dataset at = dataset.checkoutVersion(version.getId())) {
                    at.readTransaction().ifPresent(transaction -> {
                        try (transaction) {
                            transaction.transactionProperties().ifPresent(properties -> {
                                if (properties.containsKey("blob-ingest.checkpoint-id")) {
                                    commits.add(properties.get("blob-ingest.job-id") + "/"
                                            + properties.get("blob-ingest.checkpoint-id"));
                                }
                            });
                        }
                    });
                }
            }
        }
        assertThat(commits).as("Lance transactions by job/checkpoint").isNotEmpty().doesNotHaveDuplicates();
    }

    /** Lance's {@code takeBlobs} gives no {@code BlobFile} for an empty blob: that reads as no bytes. */
    private static byte[] readBlob(Dataset dataset, long index) throws Exception {
        List<BlobFile> blobs = dataset.takeBlobsByIndices(List.of(index), "blob");
        assertThat(blobs).as("blob files of row %d", index).hasSizeLessThanOrEqualTo(1);
        if (blobs.isEmpty()) {
            return new byte[0];
        }
        try (BlobFile blob = blobs.get(0)) {
            return blob.read();
        }
    }

    private static int seq(ListVector attributes, int row) {
        StructVector items = (StructVector) attributes.getDataVector();
        VarCharVector names = (VarCharVector) items.getChild("name");
        VarBinaryVector values = (VarBinaryVector) items.getChild("value");
        for (int a = attributes.getElementStartIndex(row); a < attributes.getElementEndIndex(row); a++) {
            if (new String(names.get(a), StandardCharsets.UTF_8).equals("seq")) {
                return Integer.parseInt(new String(values.get(a), StandardCharsets.UTF_8));
            }
        }
        throw new AssertionError("row " + row + " has no seq attribute");
    }

    private static long directorySize(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
        }
    }

    private static Configuration jobConfiguration(
            String runId, String descriptorTopic, String deadLetterTopic, String base, String dataset) {
        Configuration config = new Configuration();
        config.set(BlobKafkaOptions.BOOTSTRAP_SERVERS, KAFKA.bootstrapServers());
        config.set(BlobKafkaOptions.INPUT_TOPIC, INPUT_TOPIC);
        config.set(BlobKafkaOptions.DESCRIPTOR_TOPIC, descriptorTopic);
        config.set(BlobKafkaOptions.DEAD_LETTER_TOPIC, deadLetterTopic);
        config.set(BlobKafkaOptions.GROUP_ID, "lance-" + runId);
        config.set(BlobKafkaOptions.BOUNDED, true);
        config.set(RawPackSinkOptions.BASE_PATH, base);
        config.set(RawPackSinkOptions.ROLL_POLICY, RollPolicy.ON_CHECKPOINT);
        config.set(RawPackSinkOptions.PACK_TARGET_SIZE, MemorySize.ofMebiBytes(6));
        config.set(LanceOutputOptions.DATASET_URI, dataset);
        config.set(CoreOptions.DEFAULT_PARALLELISM, PARTITIONS);
        config.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        return config;
    }

    private record InjectedFailure(String runId, Failure failure, String datasetUri) implements IngestJob.Hooks {

        @Override
        public DataStream<PlacedBlob> beforeSink(DataStream<PlacedBlob> placed) {
            return placed.map(new FailOncePassThrough(runId, Failures.Point.MID_PACK_WRITE, FAIL_AFTER_BLOBS_PER_SUBTASK),
                            BlobTypes.PLACED_BLOB)
                    .name("Pass through, fail once mid pack write")
                    .uid("fail-once-pass-through");
        }

        @Override
        public DescriptorOutput lanceOutput(DescriptorOutput output) {
            return failure == Failure.AFTER_LANCE_COMMIT ? new FailAfterLanceCommit(output, runId, datasetUri) : output;
        }
    }
}
