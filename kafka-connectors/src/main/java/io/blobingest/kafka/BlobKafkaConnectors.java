package io.blobingest.kafka;

import io.blobingest.kafka.internal.BoundedKafkaSource;
import io.blobingest.kafka.internal.ClientProperties;
import io.blobingest.kafka.internal.TransactionActivity;
import io.blobingest.kafka.internal.TransactionTimeouts;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.storage.SecretSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.KafkaSourceOptions;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Builds the job's Kafka source and its two exactly-once sinks from one Flink configuration
 * ({@link BlobKafkaOptions} plus {@code execution.checkpointing.interval}). Every option is checked
 * when this is created, at job start-up, so that a bad setting fails before any record is read.
 */
@PublicEvolving
public final class BlobKafkaConnectors {

    /** Appended to the transactional id prefix by the descriptor sink. */
    public static final String DESCRIPTOR_SINK_SUFFIX = "-descriptors";
    /** Appended to the transactional id prefix by the dead-letter sink. */
    public static final String DEAD_LETTER_SINK_SUFFIX = "-dead-letters";
    /** Appended to the transactional id prefix by the backfill's sink of passed-through descriptors. */
    public static final String PASSED_THROUGH_SINK_SUFFIX = "-passed-through";

    private static final String TIMESTAMP_PREFIX = "timestamp:";

    private final String bootstrapServers;
    /** Null: the sinks only ({@link #sinksFromConfig}). */
    private final InputTopics inputTopics;

    private final OffsetsInitializer startingOffsets;
    private final Duration partitionDiscoveryInterval;
    private final DescriptorTopics descriptorTopics;
    private final String deadLetterTopic;
    private final String groupId;
    private final String transactionalIdPrefix;
    private final Duration transactionTimeout;
    private final boolean bounded;
    /** Where a bounded run stops, by partition, if its launcher fixed it ({@link BoundedRunOffsets}). */
    private final Map<TopicPartition, Long> stoppingOffsets;

    private final long deadLetterMaxRecordBytes;
    private final Properties clientProperties;
    private final Duration runningJobCheck;
    private final String lineageTopic;
    private final Duration lineageClaimWindow;

    private BlobKafkaConnectors(ReadableConfig config, boolean readsInputTopic) {
        bootstrapServers = required(config, BlobKafkaOptions.BOOTSTRAP_SERVERS);
        descriptorTopics = DescriptorTopics.of(required(config, BlobKafkaOptions.DESCRIPTOR_TOPIC));
        deadLetterTopic = required(config, BlobKafkaOptions.DEAD_LETTER_TOPIC);
        if (readsInputTopic) {
            inputTopics = InputTopics.fromConfig(config)
                    .orElseThrow(() -> new IllegalConfigurationException("missing option "
                            + BlobKafkaOptions.INPUT_TOPIC.key() + " (or " + BlobKafkaOptions.INPUT_TOPIC_PATTERN.key()
                            + ")"));
            groupId = required(config, BlobKafkaOptions.GROUP_ID);
        } else {
            inputTopics = null;
            groupId = null;
        }
        startingOffsets = startingOffsets(config.get(BlobKafkaOptions.START_FROM));
        partitionDiscoveryInterval = config.get(BlobKafkaOptions.PARTITION_DISCOVERY_INTERVAL);
        if (partitionDiscoveryInterval.isNegative()) {
            throw new IllegalConfigurationException(BlobKafkaOptions.PARTITION_DISCOVERY_INTERVAL.key()
                    + " must not be negative, found " + partitionDiscoveryInterval);
        }
        transactionalIdPrefix = lineage(config)
                .orElseThrow(() -> new IllegalConfigurationException(
                        "missing option " + BlobKafkaOptions.TRANSACTIONAL_ID_PREFIX.key()));
        if (transactionalIdPrefix.isBlank()) {
            throw new IllegalConfigurationException(
                    BlobKafkaOptions.TRANSACTIONAL_ID_PREFIX.key() + " must not be blank");
        }
        if (receivesDescriptors(deadLetterTopic)
                || readsOwnOutput(deadLetterTopic)
                || descriptorTopics.single().filter(this::readsOwnOutput).isPresent()
                || (inputTopics != null && inputTopics.names().stream().anyMatch(this::receivesDescriptors))) {
            throw new IllegalConfigurationException("the input, descriptor and dead-letter topics must differ, found "
                    + inputTopics + "; " + descriptorTopics + "; " + deadLetterTopic);
        }
        transactionTimeout = config.get(BlobKafkaOptions.TRANSACTION_TIMEOUT);
        TransactionTimeouts.validate(config);
        bounded = config.get(BlobKafkaOptions.BOUNDED);
        stoppingOffsets = BoundedRunOffsets.fixed(config);
        deadLetterMaxRecordBytes =
                config.get(BlobKafkaOptions.DEAD_LETTER_MAX_RECORD_SIZE).getBytes();
        if (deadLetterMaxRecordBytes > Integer.MAX_VALUE) {
            throw new IllegalConfigurationException(BlobKafkaOptions.DEAD_LETTER_MAX_RECORD_SIZE.key()
                    + " must be below 2 GiB, found " + config.get(BlobKafkaOptions.DEAD_LETTER_MAX_RECORD_SIZE));
        }
        SecretSettings.requireMaskable(config, BlobKafkaOptions.CLIENT_PROPERTIES);
        clientProperties = ClientProperties.of(config.get(BlobKafkaOptions.CLIENT_PROPERTIES));
        runningJobCheck = config.getOptional(BlobKafkaOptions.RUNNING_JOB_CHECK)
                .orElseGet(() -> config.getOptional(CheckpointingOptions.CHECKPOINTING_INTERVAL)
                        .orElse(Duration.ofSeconds(10))
                        .multipliedBy(2));
        lineageTopic = config.get(BlobKafkaOptions.LINEAGE_TOPIC);
        if (lineageTopic.isBlank()) {
            throw new IllegalConfigurationException(BlobKafkaOptions.LINEAGE_TOPIC.key() + " must not be blank");
        }
        if (readsOwnOutput(lineageTopic) || receivesDescriptors(lineageTopic) || lineageTopic.equals(deadLetterTopic)) {
            throw new IllegalConfigurationException(BlobKafkaOptions.LINEAGE_TOPIC.key()
                    + " must differ from the input, descriptor and dead-letter topics, found " + lineageTopic);
        }
        lineageClaimWindow = config.get(BlobKafkaOptions.LINEAGE_CLAIM_WINDOW);
        if (lineageClaimWindow.isNegative()) {
            throw new IllegalConfigurationException(
                    BlobKafkaOptions.LINEAGE_CLAIM_WINDOW.key() + " must not be negative, found " + lineageClaimWindow);
        }
        if (runningJobCheck.isNegative()) {
            throw new IllegalConfigurationException(
                    BlobKafkaOptions.RUNNING_JOB_CHECK.key() + " must not be negative, found " + runningJobCheck);
        }
    }

    /** Whether the input topics include {@code topic}, one the job writes. */
    private boolean readsOwnOutput(String topic) {
        return inputTopics != null && inputTopics.contains(topic);
    }

    /**
     * Whether descriptors may go to {@code topic}: it is the descriptor topic, or, with one per input
     * topic, that of an input topic (of any topic, for a job without input topics).
     */
    private boolean receivesDescriptors(String topic) {
        if (!descriptorTopics.perInputTopic()) {
            return descriptorTopics.names(topic);
        }
        return descriptorTopics
                .inputOf(topic)
                .filter(input -> inputTopics == null || inputTopics.contains(input))
                .isPresent();
    }

    /** {@code kafka.start-from} as the Kafka source's starting offsets. */
    @SuppressWarnings("deprecation") // the connector's committedOffsets still takes OffsetResetStrategy
    private static OffsetsInitializer startingOffsets(String startFrom) {
        String value = startFrom.strip();
        switch (value) {
            case "group":
                return OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
            case "earliest":
                return OffsetsInitializer.earliest();
            case "latest":
                return OffsetsInitializer.latest();
            default:
                if (value.startsWith(TIMESTAMP_PREFIX)) {
                    try {
                        long timestamp = Long.parseLong(value.substring(TIMESTAMP_PREFIX.length()));
                        if (timestamp >= 0) {
                            return OffsetsInitializer.timestamp(timestamp);
                        }
                    } catch (NumberFormatException e) {
                        // refused below, with the other malformed values
                    }
                }
                throw new IllegalConfigurationException(BlobKafkaOptions.START_FROM.key()
                        + " must be group, earliest, latest or timestamp:<epoch ms>, found '" + startFrom + "'");
        }
    }

    /**
     * The job's lineage: its Kafka transactional id prefix, {@code kafka.transactional-id-prefix},
     * else {@code kafka.group-id}; empty when neither is set. It is the same across all restores of
     * a job and differs from every other job's on the cluster (two jobs on one prefix fence each
     * other's transactions, {@link #runningJobOnTheTransactionalIds}): each sink's transactional ids
     * start with it and the sink's suffix, the Raw Pack sink keeps its delivery markers under the
     * descriptor sink's, and a start resumes only checkpoints recorded under it.
     */
    public static Optional<String> lineage(ReadableConfig config) {
        return config.getOptional(BlobKafkaOptions.TRANSACTIONAL_ID_PREFIX)
                .or(() -> config.getOptional(BlobKafkaOptions.GROUP_ID));
    }

    /** The job's lineage, {@link #lineage(ReadableConfig)}: its transactional id prefix. */
    public String lineage() {
        return transactionalIdPrefix;
    }

    /** @throws IllegalConfigurationException naming the first option that is missing or wrong */
    public static BlobKafkaConnectors fromConfig(ReadableConfig config) {
        return new BlobKafkaConnectors(config, true);
    }

    /**
     * The sinks only, for a job that reads no input topic (a backfill from manifests): {@code
     * kafka.input-topic} is not needed, and the transactional id prefix is {@code
     * kafka.transactional-id-prefix}, else {@code kafka.group-id}, one of which must be set.
     *
     * @throws IllegalConfigurationException naming the first option that is missing or wrong
     */
    public static BlobKafkaConnectors sinksFromConfig(ReadableConfig config) {
        return new BlobKafkaConnectors(config, false);
    }

    /**
     * The input topics ({@link InputTopics}), read {@code read_committed} from where {@code
     * kafka.start-from} says (by default the group's committed offsets, earliest when it has none)
     * unless a checkpoint says otherwise; an unbounded job finds new partitions and matching topics
     * every {@code kafka.partition-discovery-interval}. Bounded mode stops at the offsets its launcher
     * fixed ({@link BoundedRunOffsets}), else at those that are the latest when the job starts, also
     * when it restores a checkpoint of an unbounded run. The group's
     * offsets are committed with the checkpoint that commits a blob set, one checkpoint before its
     * descriptors, so they are no restart point: {@code run} restores a retained checkpoint when
     * there is one, and starts here only the first time or with {@code --fresh}.
     */
    public Source<BlobRecord, KafkaPartitionSplit, KafkaSourceEnumState> source() {
        if (inputTopics == null) {
            throw new IllegalStateException("these connectors were made without an input topic (sinksFromConfig)");
        }
        KafkaSourceBuilder<BlobRecord> builder = KafkaSource.<BlobRecord>builder()
                .setBootstrapServers(bootstrapServers)
                .setGroupId(groupId)
                .setStartingOffsets(startingOffsets)
                .setDeserializer(new BlobRecordDeserializationSchema())
                .setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
                .setProperty(
                        KafkaSourceOptions.PARTITION_DISCOVERY_INTERVAL_MS.key(),
                        Long.toString(partitionDiscoveryInterval.isZero() ? -1 : partitionDiscoveryInterval.toMillis()))
                .setProperties(clientProperties);
        if (!bounded) {
            inputTopics.subscribe(builder);
            return builder.build();
        }
        if (stoppingOffsets.isEmpty()) {
            inputTopics.subscribe(builder);
            builder.setBounded(OffsetsInitializer.latest());
        } else {
            // The topics that matched when the launcher fixed where the run stops: a topic created since is
            // not this run's.
            builder.setTopics(stoppedTopics());
            builder.setBounded(OffsetsInitializer.offsets(stoppingOffsets));
        }
        return new BoundedKafkaSource<>(builder.build(), stoppedTopics(), adminProperties());
    }

    /** The topics of the fixed stopping offsets, else the named input topics (none for a pattern). */
    private List<String> stoppedTopics() {
        if (stoppingOffsets.isEmpty()) {
            return inputTopics.names();
        }
        return stoppingOffsets.keySet().stream()
                .map(TopicPartition::topic)
                .distinct()
                .sorted()
                .toList();
    }

    /** Exactly one record per descriptor, visible to {@code read_committed} consumers once its checkpoint completes. */
    public KafkaSink<DescriptorRow> descriptorSink() {
        return exactlyOnceSink(
                new DescriptorRecordSerializer(descriptorTopics), descriptorTransactionalIdPrefix(), new Properties());
    }

    /**
     * The largest descriptor record the descriptor sinks' producers send ({@code max.request.size}
     * and {@code buffer.memory} of {@link BlobKafkaOptions#CLIENT_PROPERTIES}, else Kafka's
     * defaults): a blob whose descriptor would not fit must be dead-lettered before it is placed.
     */
    public DescriptorRecordLimit descriptorRecordLimit() {
        return DescriptorRecordLimit.of(clientProperties);
    }

    /**
     * Exactly one record per refused input record, committed with the same checkpoints. Its producer
     * takes records as large as {@link BlobKafkaOptions#DEAD_LETTER_MAX_RECORD_SIZE}: a refused
     * record is its input copied whole, and one that does not fit would fail the job. Kafka's
     * producer also refuses a record larger than its {@code buffer.memory} (32 MiB by default), so
     * that is raised to the same size where it is smaller; the pool grows on demand, nothing is
     * allocated up front.
     */
    public KafkaSink<DeadLetter> deadLetterSink() {
        return exactlyOnceSink(
                new DeadLetterRecordSerializer(deadLetterTopic),
                deadLetterTransactionalIdPrefix(),
                deadLetterProducerProperties());
    }

    /** What the dead-letter producer sets beyond {@link BlobKafkaOptions#CLIENT_PROPERTIES}. */
    Properties deadLetterProducerProperties() {
        Properties producer = new Properties();
        producer.setProperty(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Long.toString(deadLetterMaxRecordBytes));
        long bufferMemory = (Long) ClientProperties.producerSetting(
                clientProperties, ProducerConfig.BUFFER_MEMORY_CONFIG, ConfigDef.Type.LONG);
        producer.setProperty(
                ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(Math.max(bufferMemory, deadLetterMaxRecordBytes)));
        return producer;
    }

    /**
     * The backfill's second descriptor sink, for rows passed through unchanged: they name bytes
     * that are already committed, so they need not wait for a blob set, and a sink of their own
     * (its own transactional ids) keeps them apart from the Raw Pack sink's committed descriptors.
     */
    public KafkaSink<DescriptorRow> passedThroughDescriptorSink() {
        return exactlyOnceSink(
                new DescriptorRecordSerializer(descriptorTopics),
                passedThroughTransactionalIdPrefix(),
                new Properties());
    }

    /**
     * Looks for another job using this job's transactional ids now: two jobs with one prefix fence
     * each other's transactions (each start aborts the other's, each commit may find its producer
     * fenced). Lists the ids with the sinks' prefixes twice, {@code kafka.running-job-check} apart,
     * and reports what changed in a way only a running producer changes it ({@link
     * TransactionActivity}). Returns at once when no id with the prefixes exists (a first start) or
     * the check is off; a crashed job's ids show no sign of life, so its restart is not refused.
     *
     * @return a description of the other job's activity, naming the prefix and the changed ids
     */
    public Optional<String> runningJobOnTheTransactionalIds() throws InterruptedException, ExecutionException {
        if (runningJobCheck.isZero()) {
            return Optional.empty();
        }
        List<String> prefixes = List.of(
                descriptorTransactionalIdPrefix(),
                deadLetterTransactionalIdPrefix(),
                passedThroughTransactionalIdPrefix());
        try (Admin admin = Admin.create(adminProperties())) {
            TransactionActivity before =
                    TransactionActivity.of(admin.listTransactions().all().get(), prefixes);
            if (before.isEmpty()) {
                return Optional.empty();
            }
            Thread.sleep(runningJobCheck.toMillis());
            TransactionActivity after =
                    TransactionActivity.of(admin.listTransactions().all().get(), prefixes);
            List<String> signs = after.signsOfLifeSince(before);
            if (signs.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of("another job is using the transactional id prefix '" + transactionalIdPrefix
                    + "' (kafka.transactional-id-prefix, by default kafka.group-id"
                    + (groupId == null ? "" : " '" + groupId + "'") + "): within " + runningJobCheck
                    + " its transactions moved (" + String.join(", ", signs.subList(0, Math.min(4, signs.size())))
                    + (signs.size() > 4 ? ", ..." : "") + ")");
        }
    }

    /**
     * Claims this job's lineage (its transactional id prefix) for a start, before it writes
     * anything: the first of two overlapping starts wins, the later is refused ({@link LineageClaims}).
     * Watching the transactional ids cannot tell two starts apart while neither has a transaction.
     *
     * @param local whether the job runs inside this process (a local run), so its claim dies with it
     * @return the claim, to release once the job has ended
     * @throws LineageClaims.RefusedException naming the earlier start that holds the lineage
     */
    public LineageClaims.Held claimLineage(boolean local)
            throws LineageClaims.RefusedException, InterruptedException, ExecutionException {
        return new LineageClaims(lineageTopic, adminProperties(), lineageClaimWindow)
                .claim(transactionalIdPrefix, local);
    }

    /** Properties of an admin client of the job's cluster: the bootstrap servers and {@code kafka.properties}. */
    public Properties adminProperties() {
        Properties adminProperties = new Properties();
        adminProperties.putAll(clientProperties);
        adminProperties.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return adminProperties;
    }

    /** The topic or topics the descriptor sinks write. */
    public DescriptorTopics descriptorTopics() {
        return descriptorTopics;
    }

    /** The topic the dead-letter sink writes. */
    public String deadLetterTopic() {
        return deadLetterTopic;
    }

    /** The input topics; empty for connectors made without them ({@link #sinksFromConfig}). */
    public Optional<InputTopics> inputTopics() {
        return Optional.ofNullable(inputTopics);
    }

    /** The prefix the descriptor sink's transactional ids start with. */
    public String descriptorTransactionalIdPrefix() {
        return transactionalIdPrefix + DESCRIPTOR_SINK_SUFFIX;
    }

    /** The prefix the passed-through descriptor sink's transactional ids start with. */
    public String passedThroughTransactionalIdPrefix() {
        return transactionalIdPrefix + PASSED_THROUGH_SINK_SUFFIX;
    }

    /** The prefix the dead-letter sink's transactional ids start with. */
    public String deadLetterTransactionalIdPrefix() {
        return transactionalIdPrefix + DEAD_LETTER_SINK_SUFFIX;
    }

    private <T> KafkaSink<T> exactlyOnceSink(
            KafkaRecordSerializationSchema<T> serializer, String idPrefix, Properties sinkProperties) {
        Properties producer = new Properties();
        producer.putAll(clientProperties);
        producer.putAll(sinkProperties);
        return KafkaSink.<T>builder()
                .setBootstrapServers(bootstrapServers)
                .setKafkaProducerConfig(producer)
                .setProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Long.toString(transactionTimeout.toMillis()))
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(idPrefix)
                .setRecordSerializer(serializer)
                .build();
    }

    private static String required(ReadableConfig config, ConfigOption<String> option) {
        String value = config.getOptional(option)
                .orElseThrow(() -> new IllegalConfigurationException("missing option " + option.key()));
        if (value.isBlank()) {
            throw new IllegalConfigurationException("option " + option.key() + " must not be blank");
        }
        return value;
    }
}
