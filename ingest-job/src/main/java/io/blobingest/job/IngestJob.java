package io.blobingest.job;

import io.blobingest.job.internal.ClassifyRecords;
import io.blobingest.kafka.BlobKafkaConnectors;
import io.blobingest.kafka.BlobTypes;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.BlobRecordClassifier;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.PlacementPolicy;
import io.blobingest.sink.RawPackSink;
import io.blobingest.sink.RawPackSinkOptions;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The ingest job's topology:
 *
 * <pre>
 *  Kafka input topic
 *        |
 *  KafkaSource&lt;BlobRecord&gt;            (read_committed, offsets in checkpoints)
 *        |
 *  ClassifyRecords ----- dead letters ----&gt; KafkaSink (EXACTLY_ONCE) -&gt; dead-letter topic
 *        | PlacedBlob
 *  RawPackSink writer                     (Raw Packs, Dedicated sidecars, manifest: in progress)
 *        | committables at each checkpoint
 *  RawPackSink committer                  (sidecars committed first, manifest last)
 *        | committed blob sets
 *  descriptor emitter                     (reads the committed manifest)
 *        |
 *  KafkaSink (EXACTLY_ONCE) -&gt; descriptor topic
 * </pre>
 *
 * Every option is read from one Flink configuration: {@link IngestJobOptions}, {@code
 * BlobKafkaOptions}, {@code RawPackSinkOptions} and Flink's own checkpointing options.
 */
public final class IngestJob {

    public static final String SOURCE_UID = "blob-source";
    public static final String CLASSIFY_UID = "classify";
    public static final String SINK_UID = "raw-pack-sink";
    public static final String DEAD_LETTER_SINK_UID = "dead-letter-sink";

    private IngestJob() {}

    /** Adds the job's topology to {@code env}, validating every option first. */
    public static void build(StreamExecutionEnvironment env, ReadableConfig config) {
        build(env, config, Hooks.NONE);
    }

    /** The same topology, with {@code hooks} applied at its seams (failure-injection tests). */
    static void build(StreamExecutionEnvironment env, ReadableConfig config, Hooks hooks) {
        BlobKafkaConnectors kafka = BlobKafkaConnectors.fromConfig(config);
        BlobRecordClassifier classifier = classifier(config);
        RawPackSink sink = RawPackSink.builder()
                .setConfiguration(config)
                .setDescriptorSink(hooks.descriptorSink(kafka.descriptorSink()))
                .build();

        DataStream<BlobRecord> records = env
                .fromSource(kafka.source(), WatermarkStrategy.noWatermarks(), "Kafka blob source", BlobTypes.BLOB_RECORD)
                .uid(SOURCE_UID);
        SingleOutputStreamOperator<PlacedBlob> placed = records
                .process(new ClassifyRecords(classifier), BlobTypes.PLACED_BLOB)
                .name("Classify and place")
                .uid(CLASSIFY_UID);
        hooks.beforeSink(placed).sinkTo(hooks.rawPackSink(sink)).name("Raw Pack sink").uid(SINK_UID);
        placed.getSideOutput(ClassifyRecords.DEAD_LETTERS)
                .sinkTo(kafka.deadLetterSink())
                .name("Dead-letter sink")
                .uid(DEAD_LETTER_SINK_UID);
    }

    /**
     * Seams where tests inject failures into the real topology. Each default leaves the topology
     * as it is; {@link #NONE} is what the public {@link #build(StreamExecutionEnvironment,
     * ReadableConfig)} uses.
     */
    interface Hooks {

        Hooks NONE = new Hooks() {};

        /** May insert operators between placement and the Raw Pack sink. */
        default DataStream<PlacedBlob> beforeSink(DataStream<PlacedBlob> placed) {
            return placed;
        }

        /** May wrap the Raw Pack sink; the wrapper must keep its pre-write and post-commit topologies. */
        default Sink<PlacedBlob> rawPackSink(RawPackSink sink) {
            return sink;
        }

        /** May wrap the descriptor sink that receives the committed descriptors. */
        default Sink<DescriptorRow> descriptorSink(KafkaSink<DescriptorRow> sink) {
            return sink;
        }
    }

    static BlobRecordClassifier classifier(ReadableConfig config) {
        PlacementPolicy policy = new PlacementPolicy(
                config.get(IngestJobOptions.INLINE_MAX_SIZE).getBytes(),
                config.get(IngestJobOptions.DEDICATED_THRESHOLD).getBytes(),
                config.get(RawPackSinkOptions.PACK_TARGET_SIZE).getBytes());
        return new BlobRecordClassifier(
                policy,
                config.get(IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES),
                config.get(IngestJobOptions.MAX_BLOB_SIZE).getBytes());
    }
}
