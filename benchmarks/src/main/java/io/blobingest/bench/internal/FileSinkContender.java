package io.blobingest.bench.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The alternative a user would build: {@code KafkaSource} ({@code read_committed}, bounded) to a
 * row-format {@code FileSink} that writes each record's value bytes, exactly-once checkpoints,
 * part files rolled on every checkpoint (as blob-ingest seals a blob set on every checkpoint).
 */
final class FileSinkContender {

    private static final String RECORDS = "bench-records";
    private static final String BYTES = "bench-bytes";

    private final String bootstrapServers;
    private final String topic;
    private final int parallelism;
    private final Duration checkpointInterval;
    private final String output;

    /** The consumer group its source commits offsets under when a checkpoint completes. */
    static String groupId(String topic) {
        return "bench-filesink-" + topic;
    }

    FileSinkContender(
            String bootstrapServers, String topic, int parallelism, Duration checkpointInterval, String output) {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.parallelism = parallelism;
        this.checkpointInterval = checkpointInterval;
        this.output = output;
    }

    /** Records and bytes the job counted, and its net runtime. */
    Tally run() throws Exception {
        Configuration config = new Configuration();
        config.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, checkpointInterval);
        config.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);

        KafkaSource<byte[]> source = KafkaSource.<byte[]>builder()
                .setBootstrapServers(bootstrapServers)
                .setTopics(topic)
                .setGroupId(groupId(topic))
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setDeserializer(new ValueBytes())
                .setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
                .build();
        FileSink<byte[]> sink = FileSink.forRowFormat(new Path(output), new RawBytesEncoder())
                .withRollingPolicy(OnCheckpointRollingPolicy.build())
                .build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "kafka-source")
                .map(new CountRecords())
                .name("count")
                .sinkTo(sink)
                .name("file-sink");
        JobExecutionResult result = env.execute("bench-filesink");
        long records = result.<Long>getAccumulatorResult(RECORDS);
        long bytes = result.<Long>getAccumulatorResult(BYTES);
        return new Tally(records, bytes, Duration.ofMillis(result.getNetRuntime()));
    }

    /** The record's value; a null value (a tombstone) becomes no bytes. */
    private static final class ValueBytes implements KafkaRecordDeserializationSchema<byte[]> {
        private static final byte[] NONE = new byte[0];

        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<byte[]> out) {
            out.collect(record.value() == null ? NONE : record.value());
        }

        @Override
        public TypeInformation<byte[]> getProducedType() {
            return PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;
        }
    }

    /** Counts what passes into accumulators, so that the bench can check every record was read. */
    private static final class CountRecords extends RichMapFunction<byte[], byte[]> {
        private final LongCounter records = new LongCounter();
        private final LongCounter bytes = new LongCounter();

        @Override
        public void open(OpenContext openContext) {
            getRuntimeContext().addAccumulator(RECORDS, records);
            getRuntimeContext().addAccumulator(BYTES, bytes);
        }

        @Override
        public byte[] map(byte[] value) {
            records.add(1L);
            bytes.add((long) value.length);
            return value;
        }
    }

    /** Each record's value bytes, nothing added. */
    private static final class RawBytesEncoder implements Encoder<byte[]> {
        @Override
        public void encode(byte[] element, OutputStream stream) throws IOException {
            stream.write(element);
        }
    }
}
