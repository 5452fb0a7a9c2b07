package io.blobingest.job;

import io.blobingest.job.internal.ClassifyRecords;
import io.blobingest.job.internal.DescriptorOutputs;
import io.blobingest.job.internal.ManifestFileEnumerator;
import io.blobingest.job.internal.ManifestRowFormat;
import io.blobingest.job.internal.SplitManifestRows;
import io.blobingest.kafka.BlobKafkaConnectors;
import io.blobingest.kafka.DescriptorKafkaSink;
import io.blobingest.kafka.KafkaDescriptorDeliveryCheck;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.BlobRecord;
import io.blobingest.sink.BlobTypes;
import io.blobingest.sink.CheckedManifestRows;
import io.blobingest.sink.DescriptorOutputOptions;
import io.blobingest.sink.EarlierCommittedRows;
import io.blobingest.sink.manifest.ManifestRow;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The backfill job's topology: the rows of existing descriptor manifests instead of an input
 * topic, a bounded job.
 *
 * <pre>
 *  FileSource over the *.arrow manifests   (one split per file; rows read so far in checkpoints)
 *        |
 *  SplitManifestRows ---- Inline, Packed, Dedicated rows, unchanged ---&gt; ManifestRowEmitter (each epoch
 *        |       |         (with their manifest and index)                checked, an aborted one sent again)
 *        |       |                                                        -&gt; KafkaSink (EXACTLY_ONCE, own
 *        |       |                                                       transactional ids) -&gt; descriptor topic
 *        |       +------- the same rows, with the old base -------------&gt; further descriptor outputs (Lance)
 *        |       \------- rows too large to send: descriptor-too-large
 *        |                 dead letters, to the ingest job's dead-letter sink
 *        | External rows, as ingest-mode input records
 *  the ingest job from classification on (IngestJob.place): fetch, Raw Pack sink, descriptors, dead letters
 * </pre>
 *
 * Re-entered rows keep their key, attributes and source coordinates; their new descriptors and
 * manifests are those of any placed input. Passed-through rows name bytes of blob sets that are
 * committed already, so they need not wait for a checkpoint of this job's blob sets, and they are
 * in no new manifest (a manifest names only sidecars of its own blob set). Their sink's
 * transactions are checked like the Raw Pack sink's descriptor transactions: the rows of one
 * aborted after its checkpoint are read from their manifests again and sent once more ({@link
 * CheckedManifestRows}).
 */
@PublicEvolving
public final class BackfillJob {

    public static final String MANIFEST_SOURCE_UID = "manifest-source";
    public static final String SPLIT_ROWS_UID = "split-manifest-rows";
    public static final String PASSED_THROUGH_EMITTER_UID = "passed-through-emitter";
    public static final String PASSED_THROUGH_SINK_UID = "passed-through-sink";
    public static final String PASSED_THROUGH_ROWS_UID = "passed-through-rows";

    private BackfillJob() {}

    /**
     * Adds the backfill of the manifests under {@code manifests} (a directory such as {@code
     * <old base>/_descriptors}, or one manifest) to {@code env}, validating every option first.
     * Kafka needs no input topic; {@code kafka.transactional-id-prefix} (or {@code kafka.group-id})
     * names this backfill's transactions. Like {@link IngestJob#build(StreamExecutionEnvironment,
     * ReadableConfig)} it enables object reuse on {@code env}.
     */
    public static void build(StreamExecutionEnvironment env, ReadableConfig config, Path manifests) {
        build(env, config, manifests, IngestJob.Hooks.NONE);
    }

    /** The same topology, with {@code hooks} applied at the ingest job's seams (failure-injection tests). */
    @VisibleForTesting
    public static void build(
            StreamExecutionEnvironment env, ReadableConfig config, Path manifests, IngestJob.Hooks hooks) {
        BlobKafkaConnectors kafka = BlobKafkaConnectors.sinksFromConfig(config);
        FileSource<ManifestRow> source = FileSource.forBulkFileFormat(
                        new ManifestRowFormat(SplitManifestRows.MANIFEST_ROW), manifests)
                .setFileEnumerator(ManifestFileEnumerator::new)
                .build();
        SingleOutputStreamOperator<BlobRecord> reentered = env.fromSource(
                        source,
                        WatermarkStrategy.noWatermarks(),
                        "Descriptor manifests",
                        SplitManifestRows.MANIFEST_ROW)
                .uid(MANIFEST_SOURCE_UID)
                .process(new SplitManifestRows(kafka.descriptorRecordLimit()), BlobTypes.BLOB_RECORD)
                .name("Split manifest rows")
                .uid(SPLIT_ROWS_UID);
        DataStream<ManifestRow> passedThrough = reentered.getSideOutput(SplitManifestRows.PASSED_THROUGH);
        CheckedManifestRows.checked(
                        passedThrough,
                        new KafkaDescriptorDeliveryCheck(
                                kafka.adminProperties(),
                                kafka.passedThroughTransactionalIdPrefix(),
                                kafka.descriptorTopics()),
                        config,
                        BlobTypes.DESCRIPTOR_ROW)
                .uid(PASSED_THROUGH_EMITTER_UID)
                .sinkTo(hooks.passedThroughDescriptorSink(new DescriptorKafkaSink(
                        kafka.passedThroughDescriptorSink(),
                        kafka.adminProperties(),
                        kafka.passedThroughTransactionalIdPrefix())))
                .name("Passed-through descriptor sink")
                .uid(PASSED_THROUGH_SINK_UID);
        IngestJob.place(
                reentered,
                List.of(reentered.getSideOutput(ClassifyRecords.DEAD_LETTERS)),
                passedThroughToOutputs(passedThrough, config, manifests),
                kafka,
                config,
                hooks);
    }

    /**
     * The passed-through rows as rows a further descriptor output (a Lance dataset) takes too, with
     * the old base their packs and sidecars lie under: the directory holding the manifests'
     * {@code _descriptors} (spec.md section 3). Without such an output they need no base.
     */
    private static List<EarlierCommittedRows> passedThroughToOutputs(
            DataStream<ManifestRow> passedThrough, ReadableConfig config, Path manifests) {
        if (DescriptorOutputs.fromConfig(config, IngestJob.userClassLoader()).isEmpty()) {
            return List.of();
        }
        Path descriptors =
                manifests.getName().equals(BlobSets.DESCRIPTORS_DIRECTORY) ? manifests : manifests.getParent();
        if (descriptors == null
                || !descriptors.getName().equals(BlobSets.DESCRIPTORS_DIRECTORY)
                || descriptors.getParent() == null) {
            throw new IllegalArgumentException("a backfill with a further descriptor output ("
                    + DescriptorOutputOptions.LANCE_DATASET_URI.key() + ") finds the packs and sidecars of the rows it "
                    + "passes through in the base of their manifests: give the manifests as <base>/"
                    + BlobSets.DESCRIPTORS_DIRECTORY + "/ or one manifest in it, not " + manifests);
        }
        // Each row once, as the source reads it: the further outputs commit on their own and never
        // lose a transaction with the descriptor sink, so they take none of its re-sent rows.
        DataStream<DescriptorRow> rows = passedThrough
                .map(ManifestRow::row, BlobTypes.DESCRIPTOR_ROW)
                .name("Passed-through rows")
                .uid(PASSED_THROUGH_ROWS_UID);
        return List.of(
                new EarlierCommittedRows(rows, descriptors.getParent().toUri().toString()));
    }
}
