package io.blobingest.job;

import io.blobingest.job.internal.CheckDescriptorSize;
import io.blobingest.job.internal.ClassifyRecords;
import io.blobingest.job.internal.CountDeadLetters;
import io.blobingest.job.internal.DescriptorOutputs;
import io.blobingest.job.internal.ExternalBlobFetcher;
import io.blobingest.job.internal.ExternalFetchSettings;
import io.blobingest.job.internal.FailedCopiesToDeadLetters;
import io.blobingest.job.internal.FetchExternalBlobsFactory;
import io.blobingest.kafka.BlobKafkaConnectors;
import io.blobingest.kafka.DeadLetterDeliveries;
import io.blobingest.kafka.DescriptorKafkaSink;
import io.blobingest.kafka.KafkaDescriptorDeliveryCheck;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.BlobRecordClassifier;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.HeaderColumn;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.PlacementPolicy;
import io.blobingest.sink.BlobTypes;
import io.blobingest.sink.DescriptorOutput;
import io.blobingest.sink.DescriptorOutputOptions;
import io.blobingest.sink.EarlierCommittedRows;
import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.RawPackSink;
import io.blobingest.sink.RawPackSinkBuilder;
import io.blobingest.sink.RawPackSinkOptions;
import java.net.URI;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Either;

/**
 * The ingest job's topology:
 *
 * <pre>
 *  Kafka input topic
 *        |
 *  KafkaSource&lt;BlobRecord&gt;            (read_committed, offsets in checkpoints)
 *        |
 *  ClassifyRecords ----- dead letters ----&gt; DeadLetterDeliveries -&gt; KafkaSink (EXACTLY_ONCE) -&gt; dead letters
 *        | PlacedBlob, or ExternalFetch (ingest mode)          ^   (re-sends an aborted transaction's dead letters)
 *  FetchExternalBlobs ---- dead letters -----------------------+
 *        | PlacedBlob                     (Kafka-carried blobs pass at once; external.fetch-concurrency
 *        |                                 fetches in flight per subtask; a Dedicated blob may name its
 *        |                                 external source instead of bytes)
 *  CheckDescriptorSize --- descriptor-too-large ----------------+
 *        | PlacedBlob                     (its descriptor record fits the descriptor producer's limit)
 *        |                                within-job sharing: routed to the writers by content (network hop)
 *  FailedCopiesToDeadLetters --- failed copies of External objects ---+
 *        | PlacedBlob                     (chained to the writer: its copy fails inside this operator)
 *  RawPackSink writer                     (Raw Packs, Dedicated sidecars, manifest: in progress)
 *        | committables at each checkpoint
 *  RawPackSink committer                  (sidecars committed first, manifest last)
 *        | committed blob sets
 *  descriptor emitter                     (reads the committed manifest)
 *        |
 *  KafkaSink (EXACTLY_ONCE) -&gt; descriptor topic
 * </pre>
 *
 * Everything after the source is {@link #place}, which {@link BackfillJob} feeds with manifest rows
 * instead. Every option is read from one Flink configuration: {@link IngestJobOptions}, {@code
 * BlobKafkaOptions}, {@code RawPackSinkOptions} and Flink's own checkpointing options.
 */
@PublicEvolving
public final class IngestJob {

    public static final String SOURCE_UID = "blob-source";
    public static final String CLASSIFY_UID = "classify";
    public static final String FETCH_UID = "fetch-external";
    public static final String CHECK_DESCRIPTOR_SIZE_UID = "check-descriptor-size";
    public static final String FAILED_COPIES_UID = "failed-copies";
    public static final String SINK_UID = "raw-pack-sink";
    public static final String COUNT_DEAD_LETTERS_UID = "count-dead-letters";
    public static final String DEAD_LETTER_DELIVERIES_UID = "dead-letter-deliveries";
    public static final String DEAD_LETTER_SINK_UID = "dead-letter-sink";

    private IngestJob() {}

    /**
     * Adds the job's topology to {@code env}, validating every option first.
     *
     * <p>It enables object reuse on {@code env} ({@link ExecutionConfig#enableObjectReuse()}), for
     * the whole job: without it every chained operator hands on a deep copy of its output, about
     * eight copies of each blob between source and sink. Every operator of this topology emits new
     * objects and never changes its input; an operator of your own in the same environment must
     * not change or keep the objects it receives either.
     */
    public static void build(StreamExecutionEnvironment env, ReadableConfig config) {
        build(env, config, Hooks.NONE);
    }

    /** The same topology, with {@code hooks} applied at its seams (failure-injection tests). */
    @VisibleForTesting
    public static void build(StreamExecutionEnvironment env, ReadableConfig config, Hooks hooks) {
        BlobKafkaConnectors kafka = BlobKafkaConnectors.fromConfig(config);
        DataStream<BlobRecord> records = env.fromSource(
                        kafka.source(), WatermarkStrategy.noWatermarks(), "Kafka blob source", BlobTypes.BLOB_RECORD)
                .uid(SOURCE_UID);
        place(records, List.of(), List.of(), kafka, config, hooks);
    }

    /**
     * Everything after the source: classification, the fetch stage, the descriptor size check, the
     * Raw Pack sink and its descriptor sink, the dead-letter sink. Each record of {@code records}
     * ends as one descriptor or one dead letter, as a record of the input topic would; the backfill
     * feeds it manifest rows, and its own dead letters ({@code earlierDeadLetters}) join the
     * dead-letter sink here. Every further descriptor output (a Lance dataset) gets the rows of
     * {@code earlierRows} too (the backfill's passed-through rows, which have their own way to the
     * descriptor topic), once each, beside those of the sets placed here.
     */
    static void place(
            DataStream<BlobRecord> records,
            List<DataStream<DeadLetter>> earlierDeadLetters,
            List<EarlierCommittedRows> earlierRows,
            BlobKafkaConnectors kafka,
            ReadableConfig config,
            Hooks hooks) {
        // Here, so that every job built around this pipeline (run, backfill) passes references on:
        // see build's javadoc for why that is safe.
        records.getExecutionEnvironment().getConfig().enableObjectReuse();
        BlobRecordClassifier classifier = classifier(config);
        classifier.requireOutside(
                ownDirectories(config, records.getExecutionEnvironment().getConfiguration()));
        ExternalFetchSettings fetchSettings = ExternalFetchSettings.fromConfig(config);
        RawPackSinkBuilder sinkBuilder = RawPackSink.builder()
                .setConfiguration(config)
                .setDescriptorSink(
                        hooks.descriptorSink(new DescriptorKafkaSink(
                                kafka.descriptorSink(),
                                kafka.adminProperties(),
                                kafka.descriptorTransactionalIdPrefix())),
                        new KafkaDescriptorDeliveryCheck(
                                kafka.adminProperties(),
                                kafka.descriptorTransactionalIdPrefix(),
                                kafka.descriptorTopics()))
                .setExternalReadRetries(fetchSettings.retries())
                .setExternalAllowedPrefixes(config.get(IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES));
        for (DescriptorOutput output : DescriptorOutputs.fromConfig(config, userClassLoader())) {
            sinkBuilder.addDescriptorOutput(hooks.descriptorOutput(output));
        }
        earlierRows.forEach(sinkBuilder::addEarlierCommittedRows);
        RawPackSink sink = sinkBuilder.build();

        SingleOutputStreamOperator<Either<PlacedBlob, ExternalFetch>> classified = records.process(
                        new ClassifyRecords(classifier, config.get(IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES)),
                        ClassifyRecords.OUTPUT_TYPE)
                .name("Classify and place")
                .uid(CLASSIFY_UID);
        // Within-job sharing routes the blobs to the writers over a network hop: the fetch stage's
        // copies then wait for credits that the writers' task returns, so that a barrier never
        // queues behind more copies than the fetch concurrency.
        String copyCredits = config.get(RawPackSinkOptions.EXACT_SHARING) == ExactSharing.WITHIN_JOB
                ? "blob-ingest-copy-credits-" + UUID.randomUUID()
                : null;
        SingleOutputStreamOperator<PlacedBlob> fetched =
                fetchExternalBlobs(classified, config, fetchSettings, copyCredits);
        SingleOutputStreamOperator<PlacedBlob> placed = fetched.process(
                        new CheckDescriptorSize(kafka.descriptorRecordLimit()), BlobTypes.PLACED_BLOB)
                .name("Check descriptor size")
                .uid(CHECK_DESCRIPTOR_SIZE_UID);
        SingleOutputStreamOperator<PlacedBlob> copied = sink.routeToWriters(hooks.beforeSink(placed))
                .transform(
                        "Dead-letter failed copies",
                        BlobTypes.PLACED_BLOB,
                        copyCredits == null
                                ? FailedCopiesToDeadLetters.factory()
                                : FailedCopiesToDeadLetters.withCopyCredits(copyCredits, fetchSettings.concurrency()))
                .uid(FAILED_COPIES_UID);
        copied.sinkTo(hooks.rawPackSink(sink)).name("Raw Pack sink").uid(SINK_UID);
        DataStream<DeadLetter> deadLetters = classified
                .getSideOutput(ClassifyRecords.DEAD_LETTERS)
                .union(
                        fetched.getSideOutput(ClassifyRecords.DEAD_LETTERS),
                        placed.getSideOutput(ClassifyRecords.DEAD_LETTERS),
                        copied.getSideOutput(ClassifyRecords.DEAD_LETTERS));
        for (DataStream<DeadLetter> refused : earlierDeadLetters) {
            deadLetters = deadLetters.union(refused);
        }
        deadLetters
                .map(new CountDeadLetters(), BlobTypes.DEAD_LETTER)
                .name("Count dead letters")
                .uid(COUNT_DEAD_LETTERS_UID)
                // Chained to the sink: it counts the sink's epochs and sends aborted ones again.
                .transform(
                        "Check dead-letter deliveries",
                        BlobTypes.DEAD_LETTER,
                        new DeadLetterDeliveries(
                                kafka.adminProperties(),
                                kafka.deadLetterTransactionalIdPrefix(),
                                kafka.deadLetterTopic(),
                                kafka.inputTopics().orElse(null),
                                records.getExecutionEnvironment()
                                        .getCheckpointConfig()
                                        .isCheckpointingEnabled()))
                .uid(DEAD_LETTER_DELIVERIES_UID)
                .sinkTo(hooks.deadLetterSink(kafka.deadLetterSink()))
                .name("Dead-letter sink")
                .uid(DEAD_LETTER_SINK_UID);
    }

    /**
     * Seams where tests inject failures into the real topology. Each default leaves the topology
     * as it is; {@link #NONE} is what the public {@link #build(StreamExecutionEnvironment,
     * ReadableConfig)} uses.
     */
    @VisibleForTesting
    public interface Hooks {

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
        default Sink<DescriptorRow> descriptorSink(DescriptorKafkaSink sink) {
            return sink;
        }

        /** May wrap the backfill's sink of the rows it passes through unchanged. */
        default Sink<DescriptorRow> passedThroughDescriptorSink(DescriptorKafkaSink sink) {
            return sink;
        }

        /** May wrap the dead-letter sink. */
        default Sink<DeadLetter> deadLetterSink(KafkaSink<DeadLetter> sink) {
            return sink;
        }

        /** May wrap each further descriptor output the configuration enables (a Lance dataset). */
        default DescriptorOutput descriptorOutput(DescriptorOutput output) {
            return output;
        }
    }

    /** Under {@code flink run} the user code class loader, which sees the job jar and the {@code -C} jars. */
    static ClassLoader userClassLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : IngestJob.class.getClassLoader();
    }

    /** Fetches external blobs and passes placed ones through, in the chain from source to sink. */
    private static SingleOutputStreamOperator<PlacedBlob> fetchExternalBlobs(
            DataStream<Either<PlacedBlob, ExternalFetch>> classified,
            ReadableConfig config,
            ExternalFetchSettings settings,
            String copyCredits) {
        ExternalBlobFetcher fetcher = new ExternalBlobFetcher(
                placementPolicy(config),
                config.get(IngestJobOptions.MAX_BLOB_SIZE).getBytes(),
                settings.retries(),
                config.get(IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES));
        return classified
                .transform(
                        "Fetch external blobs",
                        BlobTypes.PLACED_BLOB,
                        copyCredits == null
                                ? new FetchExternalBlobsFactory(fetcher, settings)
                                : FetchExternalBlobsFactory.withCopyCredits(fetcher, settings, copyCredits))
                .uid(FETCH_UID);
    }

    /**
     * The directories of the job's own files, as absolute URIs: the base and the checkpoint
     * directory (the job's, else the environment's, which under {@code flink run} is the cluster's).
     */
    private static Map<String, String> ownDirectories(ReadableConfig config, ReadableConfig environment) {
        Map<String, String> own = new LinkedHashMap<>();
        own.put(RawPackSinkOptions.BASE_PATH.key(), absoluteUri(config.get(RawPackSinkOptions.BASE_PATH)));
        config.getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY)
                .or(() -> environment.getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY))
                .ifPresent(
                        directory -> own.put(CheckpointingOptions.CHECKPOINTS_DIRECTORY.key(), absoluteUri(directory)));
        return own;
    }

    private static String absoluteUri(String location) {
        URI uri = new org.apache.flink.core.fs.Path(location).toUri();
        return uri.getScheme() == null
                ? Paths.get(uri.getPath()).toAbsolutePath().toUri().toString()
                : uri.toString();
    }

    static BlobRecordClassifier classifier(ReadableConfig config) {
        return new BlobRecordClassifier(
                placementPolicy(config),
                config.get(IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES),
                config.get(IngestJobOptions.MAX_BLOB_SIZE).getBytes(),
                config.get(IngestJobOptions.EXTERNAL_FORCE_INGEST),
                headerColumns(config));
    }

    /** {@code sink.lance.columns}, checked at classification, so that a bad value never reaches the sink. */
    private static List<HeaderColumn> headerColumns(ReadableConfig config) {
        String spec = config.get(DescriptorOutputOptions.LANCE_COLUMNS);
        if (!spec.isBlank()
                && config.getOptional(DescriptorOutputOptions.LANCE_DATASET_URI)
                        .filter(uri -> !uri.isBlank())
                        .isEmpty()) {
            throw new IllegalArgumentException(DescriptorOutputOptions.LANCE_COLUMNS.key() + " needs "
                    + DescriptorOutputOptions.LANCE_DATASET_URI.key() + ": the columns are the Lance dataset's");
        }
        try {
            return HeaderColumn.parseAll(spec);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(DescriptorOutputOptions.LANCE_COLUMNS.key() + ": " + e.getMessage(), e);
        }
    }

    private static PlacementPolicy placementPolicy(ReadableConfig config) {
        return new PlacementPolicy(
                config.get(IngestJobOptions.INLINE_MAX_SIZE).getBytes(),
                config.get(IngestJobOptions.DEDICATED_THRESHOLD).getBytes(),
                config.get(RawPackSinkOptions.PACK_TARGET_SIZE).getBytes());
    }
}
