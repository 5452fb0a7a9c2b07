package io.blobingest.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.BlobRecordClassifier;
import io.blobingest.placement.ClassifiedRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.PlacementPolicy;
import io.blobingest.sink.BlobTypes;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.zip.CRC32C;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.CheckpointType;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small job on a MiniCluster and a real broker: input topic -> classify -> descriptor and
 * dead-letter topics through the exactly-once sinks.
 */
class KafkaConnectorsITCase {

    @RegisterExtension
    @Order(1)
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    @Order(2)
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static final Duration VISIBLE_WITHIN = Duration.ofSeconds(60);
    private static final String ALLOWED = "s3://bucket/allowed/";
    private static final long MAX_BLOB_BYTES = 1024;
    private static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("dead-letters", BlobTypes.DEAD_LETTER);

    @Test
    void outputsBecomeVisibleToReadCommittedConsumersOnlyWhenACheckpointCompletes(
            @InjectClusterClient ClusterClient<?> client) throws Exception {
        Topics topics = Topics.create("visibility");
        List<ProducerRecord<byte[], byte[]>> placed = List.of(
                input(topics.input, "inline", new byte[] {1, 2, 3}, "camera", "front", "trace", "1", "trace", "2"),
                input(topics.input, "empty", new byte[0]),
                input(
                        topics.input,
                        "reference",
                        null,
                        "blob.uri",
                        ALLOWED + "x",
                        "blob.mode",
                        "reference",
                        "blob.position",
                        "5",
                        "blob.size",
                        "10",
                        "camera",
                        "rear"));
        List<ProducerRecord<byte[], byte[]>> refused = List.of(
                input(topics.input, "null-value", null, "camera", "side"),
                input(topics.input, "bad-range", null, "blob.uri", ALLOWED + "x", "blob.size", "1"),
                input(topics.input, "bad-uri", new byte[] {4}, "blob.uri", "relative/x", "blob.mode", "reference"),
                input(topics.input, "uri-not-allowed", null, "blob.uri", "s3://other/x", "blob.mode", "reference"),
                input(topics.input, "too-large", new byte[(int) MAX_BLOB_BYTES + 1]));
        List<ProducerRecord<byte[], byte[]>> inputs = new ArrayList<>(placed);
        inputs.addAll(refused);
        KAFKA.send(inputs);

        Configuration config = jobConfig(topics, Duration.ofMinutes(5));
        // In the configuration, where the transaction timeout check sees it: 5 + 5 + 2 + 1 min < 14 min.
        config.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, Duration.ofMinutes(5));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        buildJob(env, config);
        JobID job = env.executeAsync("kafka-connectors-visibility").getJobID();
        try {
            KAFKA.awaitRecords(topics.descriptors, IsolationLevel.READ_UNCOMMITTED, placed.size(), VISIBLE_WITHIN);
            KAFKA.awaitRecords(topics.deadLetters, IsolationLevel.READ_UNCOMMITTED, refused.size(), VISIBLE_WITHIN);

            assertThat(KAFKA.drainCommitted(topics.descriptors)).isEmpty();
            assertThat(KAFKA.drainCommitted(topics.deadLetters)).isEmpty();

            client.triggerCheckpoint(job, CheckpointType.FULL).get();

            KAFKA.awaitRecords(topics.descriptors, IsolationLevel.READ_COMMITTED, placed.size(), VISIBLE_WITHIN);
            KAFKA.awaitRecords(topics.deadLetters, IsolationLevel.READ_COMMITTED, refused.size(), VISIBLE_WITHIN);
        } finally {
            client.cancel(job).get();
        }

        Map<Long, DescriptorRow> descriptors = KAFKA.drainCommitted(topics.descriptors).stream()
                .map(DescriptorRecords::parse)
                .collect(Collectors.toMap(DescriptorRow::sourceOffset, Function.identity()));
        assertThat(descriptors).hasSize(placed.size());
        assertThat(descriptors.get(0L))
                .usingRecursiveComparison()
                .isEqualTo(new DescriptorRow(
                        key("inline"),
                        topics.input,
                        0,
                        0,
                        null,
                        BlobDescriptor.inline(3),
                        null,
                        new byte[] {1, 2, 3},
                        crc32c(new byte[] {1, 2, 3}),
                        attributes("camera", "front", "trace", "1", "trace", "2")));
        assertThat(descriptors.get(1L))
                .usingRecursiveComparison()
                .isEqualTo(new DescriptorRow(
                        key("empty"),
                        topics.input,
                        0,
                        1,
                        null,
                        BlobDescriptor.inline(0),
                        null,
                        new byte[0],
                        crc32c(new byte[0]),
                        List.of()));
        assertThat(descriptors.get(2L))
                .usingRecursiveComparison()
                .isEqualTo(new DescriptorRow(
                        key("reference"),
                        topics.input,
                        0,
                        2,
                        null,
                        BlobDescriptor.external(ALLOWED + "x", 5, 10),
                        null,
                        null,
                        null,
                        attributes("camera", "rear")));

        List<ConsumerRecord<byte[], byte[]>> deadLetters = KAFKA.drainCommitted(topics.deadLetters);
        assertThat(deadLetters).hasSize(refused.size());
        for (ConsumerRecord<byte[], byte[]> deadLetter : deadLetters) {
            String code = new String(deadLetter.key(), UTF_8);
            ProducerRecord<byte[], byte[]> original = refused.stream()
                    .filter(r -> new String(r.key(), UTF_8).equals(code))
                    .findFirst()
                    .orElseThrow();
            List<Header> expectedHeaders =
                    new ArrayList<>(List.of(original.headers().toArray()));
            assertThat(deadLetter.value()).isEqualTo(original.value());
            assertThat(headerNamesAndValues(deadLetter.headers()).subList(0, expectedHeaders.size()))
                    .containsExactlyElementsOf(headerNamesAndValues(expectedHeaders));
            assertThat(deadLetter.headers().lastHeader("blob.error").value())
                    .asString(UTF_8)
                    .isEqualTo(code);
            assertThat(deadLetter.headers().lastHeader("blob.error.detail").value())
                    .isNotEmpty();
        }
    }

    @Test
    void boundedModeReadsTheInputUpToItsEndAtStartAndFinishes() throws Exception {
        Topics topics = Topics.create("bounded");
        KAFKA.send(List.of(input(topics.input, "a", new byte[] {1}), input(topics.input, "b", null)));

        Configuration config = jobConfig(topics, Duration.ofMillis(200));
        config.set(BlobKafkaOptions.BOUNDED, true);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        buildJob(env, config);
        env.execute("kafka-connectors-bounded");

        assertThat(KAFKA.drainCommitted(topics.descriptors)).hasSize(1);
        assertThat(KAFKA.drainCommitted(topics.deadLetters)).hasSize(1);
    }

    /**
     * {@code run --resume --bounded} after an unbounded run: the restored splits carry no stopping
     * offset and the restored enumerator finds no new partition, so connector 5.0 alone would read
     * forever (FLINK-31006); the bounded source must still reach the end and finish.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void boundedModeResumedFromAnUnboundedRunsSavepointReadsOnToTheEndAndFinishes(
            @InjectClusterClient ClusterClient<?> client, @TempDir Path savepoints) throws Exception {
        Topics topics = Topics.create("resumed");
        KAFKA.send(List.of(input(topics.input, "before", new byte[] {1})));
        Configuration unbounded = jobConfig(topics, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(unbounded);
        buildJob(env, unbounded);
        JobID job = env.executeAsync("kafka-connectors-unbounded").getJobID();
        String savepoint;
        try {
            KAFKA.awaitRecords(topics.descriptors, IsolationLevel.READ_COMMITTED, 1, VISIBLE_WITHIN);
        } finally {
            savepoint = client.stopWithSavepoint(
                            job, false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                    .get();
        }
        KAFKA.send(List.of(input(topics.input, "after", new byte[] {2}), input(topics.input, "refused", null)));

        Configuration bounded = jobConfig(topics, Duration.ofMillis(200));
        bounded.set(BlobKafkaOptions.BOUNDED, true);
        bounded.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        StreamExecutionEnvironment resumed = StreamExecutionEnvironment.getExecutionEnvironment(bounded);
        buildJob(resumed, bounded);
        resumed.execute("kafka-connectors-resumed-bounded");

        assertThat(KAFKA.drainCommitted(topics.descriptors))
                .extracting(r -> new String(r.key(), UTF_8))
                .containsExactlyInAnyOrder("before", "after");
        assertThat(KAFKA.drainCommitted(topics.deadLetters)).hasSize(1);
    }

    private static Configuration jobConfig(Topics topics, Duration checkpointInterval) {
        Configuration config = new Configuration();
        config.set(BlobKafkaOptions.BOOTSTRAP_SERVERS, KAFKA.bootstrapServers());
        config.set(BlobKafkaOptions.INPUT_TOPIC, topics.input);
        config.set(BlobKafkaOptions.DESCRIPTOR_TOPIC, topics.descriptors);
        config.set(BlobKafkaOptions.DEAD_LETTER_TOPIC, topics.deadLetters);
        config.set(BlobKafkaOptions.GROUP_ID, topics.input + "-job");
        config.set(BlobKafkaOptions.TRANSACTION_TIMEOUT, Duration.ofMinutes(14));
        config.set(
                BlobKafkaOptions.BROKER_TRANSACTION_MAX_TIMEOUT, KafkaBrokerExtension.BROKER_TRANSACTION_MAX_TIMEOUT);
        config.set(BlobKafkaOptions.TRANSACTION_RESTART_ALLOWANCE, Duration.ofMinutes(1));
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, checkpointInterval);
        config.set(CheckpointingOptions.CHECKPOINTING_TIMEOUT, Duration.ofMinutes(2));
        config.set(PipelineOptions.GENERIC_TYPES, false);
        return config;
    }

    @Test
    void theDescriptorRecordLimitIsTheSizeKafkasProducerEnforces() throws Exception {
        KAFKA.createTopic("limit-descriptors", 1);
        byte[] bytes = new byte[200_000];
        DescriptorRow fits = new DescriptorRow(
                "k".getBytes(UTF_8),
                "blobs",
                0,
                1,
                null,
                BlobDescriptor.inline(bytes.length),
                null,
                bytes,
                42L,
                List.of(new Attribute("camera", "cam-1".getBytes(UTF_8))));
        DescriptorRow oneByteMore = new DescriptorRow(
                fits.key(),
                "blobs",
                0,
                1,
                null,
                BlobDescriptor.inline(bytes.length + 1L),
                null,
                new byte[bytes.length + 1],
                42L,
                fits.attributes());
        int limit = DescriptorRecordLimit.recordBytes(fits);
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(limit));

        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            assertThat(new DescriptorRecordLimit(limit).fits(fits)).isTrue();
            producer.send(DescriptorRecords.toProducerRecord("limit-descriptors", fits, null))
                    .get(60, TimeUnit.SECONDS);

            assertThat(new DescriptorRecordLimit(limit).fits(oneByteMore)).isFalse();
            assertThatThrownBy(() -> producer.send(
                                    DescriptorRecords.toProducerRecord("limit-descriptors", oneByteMore, null))
                            .get(60, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(RecordTooLargeException.class)
                    .hasMessageContaining(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        }
        assertThat(KAFKA.awaitRecords("limit-descriptors", IsolationLevel.READ_UNCOMMITTED, 1, VISIBLE_WITHIN))
                .singleElement()
                .extracting(ConsumerRecord::value)
                .isEqualTo(bytes);
    }

    private static void buildJob(StreamExecutionEnvironment env, Configuration config) {
        BlobKafkaConnectors connectors = BlobKafkaConnectors.fromConfig(config);
        BlobRecordClassifier classifier =
                new BlobRecordClassifier(PlacementPolicy.lanceDefaults(), List.of(ALLOWED), MAX_BLOB_BYTES);
        SingleOutputStreamOperator<DescriptorRow> descriptors = env.fromSource(
                        connectors.source(), WatermarkStrategy.noWatermarks(), "input")
                .setParallelism(1)
                .process(new InlineAndReferenceOnly(classifier), BlobTypes.DESCRIPTOR_ROW)
                .setParallelism(1);
        descriptors.sinkTo(connectors.descriptorSink()).setParallelism(1);
        descriptors
                .getSideOutput(DEAD_LETTERS)
                .sinkTo(connectors.deadLetterSink())
                .setParallelism(1);
    }

    /** Classifies and describes Inline and External blobs; packing needs storage, not tested here. */
    private static final class InlineAndReferenceOnly extends ProcessFunction<BlobRecord, DescriptorRow> {
        private static final long serialVersionUID = 1L;
        private final BlobRecordClassifier classifier;

        InlineAndReferenceOnly(BlobRecordClassifier classifier) {
            this.classifier = classifier;
        }

        @Override
        public void processElement(BlobRecord record, Context context, Collector<DescriptorRow> out) {
            ClassifiedRecord classified = classifier.classify(record);
            if (classified instanceof DeadLetter deadLetter) {
                context.output(DEAD_LETTERS, deadLetter);
                return;
            }
            PlacedBlob placed = (PlacedBlob) classified;
            switch (placed.placement()) {
                case INLINE ->
                    out.collect(new DescriptorRow(
                            record.key(),
                            record.topic(),
                            record.partition(),
                            record.offset(),
                            null,
                            BlobDescriptor.inline(placed.bytes().length),
                            null,
                            placed.bytes(),
                            crc32c(placed.bytes()),
                            placed.attributes()));
                case EXTERNAL ->
                    out.collect(new DescriptorRow(
                            record.key(),
                            record.topic(),
                            record.partition(),
                            record.offset(),
                            null,
                            placed.external(),
                            null,
                            null,
                            null,
                            placed.attributes()));
                default ->
                    throw new IllegalStateException("the test job cannot place " + placed.placement()
                            + " blobs, found one at " + record.source());
            }
        }
    }

    private record Topics(String input, String descriptors, String deadLetters) {
        static Topics create(String name) throws Exception {
            Topics topics = new Topics(name + "-input", name + "-descriptors", name + "-dead-letters");
            KAFKA.createTopic(topics.input, 1);
            KAFKA.createTopic(topics.descriptors, 1);
            KAFKA.createTopic(topics.deadLetters, 1);
            return topics;
        }
    }

    /** An input record on partition 0 keyed by {@code key}, with header name/value pairs. */
    private static ProducerRecord<byte[], byte[]> input(String topic, String key, byte[] value, String... headerPairs) {
        List<Header> headers = new ArrayList<>();
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.add(new RecordHeader(headerPairs[i], headerPairs[i + 1].getBytes(UTF_8)));
        }
        return new ProducerRecord<>(topic, 0, key(key), value, headers);
    }

    private static List<Attribute> attributes(String... pairs) {
        List<Attribute> attributes = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            attributes.add(new Attribute(pairs[i], pairs[i + 1].getBytes(UTF_8)));
        }
        return attributes;
    }

    private static List<String> headerNamesAndValues(Iterable<Header> headers) {
        List<String> strings = new ArrayList<>();
        headers.forEach(h -> strings.add(h.key() + "=" + new String(h.value(), UTF_8)));
        return strings;
    }

    private static byte[] key(String key) {
        return key.getBytes(UTF_8);
    }

    private static long crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }
}
