package io.blobingest.kafka;

import java.time.Duration;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/** Every Kafka-related option of the job, in the job's Flink configuration. */
@PublicEvolving
public final class BlobKafkaOptions {

    public static final ConfigOption<String> BOOTSTRAP_SERVERS = ConfigOptions.key("kafka.bootstrap-servers")
            .stringType()
            .noDefaultValue()
            .withDescription("Kafka bootstrap servers, host:port[,host:port...], for every topic.");

    public static final ConfigOption<String> INPUT_TOPIC = ConfigOptions.key("kafka.input-topic")
            .stringType()
            .noDefaultValue()
            .withDescription("Topic of the blobs to ingest (spec.md section 4), or several separated by commas. "
                    + "Not with kafka.input-topic-pattern.");

    public static final ConfigOption<String> INPUT_TOPIC_PATTERN = ConfigOptions.key("kafka.input-topic-pattern")
            .stringType()
            .noDefaultValue()
            .withDescription("Ingest every topic whose whole name matches this Java regular expression, also "
                    + "topics created while the job runs (found within kafka.partition-discovery-interval, "
                    + "read from their first record). A bounded run reads the topics that match when it starts. "
                    + "Must not match the descriptor, dead-letter or lineage topic. Not with kafka.input-topic.");

    public static final ConfigOption<String> START_FROM = ConfigOptions.key("kafka.start-from")
            .stringType()
            .defaultValue("group")
            .withDescription("Where a job without a checkpoint to resume starts reading each input partition: "
                    + "'group' (the consumer group's committed offset, else the earliest), 'earliest', "
                    + "'latest', or 'timestamp:<epoch ms>' (the first record at or after it, else the end). A "
                    + "resumed checkpoint's offsets always win; partitions found later start at their earliest.");

    public static final ConfigOption<Duration> PARTITION_DISCOVERY_INTERVAL = ConfigOptions.key(
                    "kafka.partition-discovery-interval")
            .durationType()
            .defaultValue(Duration.ofSeconds(30))
            .withDescription("How often an unbounded job looks for new partitions of its input topics and, "
                    + "with kafka.input-topic-pattern, for new topics that match; 0 s never.");

    public static final ConfigOption<String> DESCRIPTOR_TOPIC = ConfigOptions.key("kafka.descriptor-topic")
            .stringType()
            .noDefaultValue()
            .withDescription("Topic receiving one descriptor record per placed input record; with {topic} in it"
                    + " (e.g. {topic}.descriptors), each input topic's descriptors go to a topic of their own,"
                    + " created by the job with the broker's defaults if missing.");

    public static final ConfigOption<String> DEAD_LETTER_TOPIC = ConfigOptions.key("kafka.dead-letter-topic")
            .stringType()
            .noDefaultValue()
            .withDescription("Topic receiving every refused input record with blob.error headers.");

    public static final ConfigOption<String> GROUP_ID = ConfigOptions.key("kafka.group-id")
            .stringType()
            .noDefaultValue()
            .withDescription("Consumer group of the input topic; offsets are committed to it on checkpoints "
                    + "(for lag monitoring) and a job started without a checkpoint (a first start, run --fresh) "
                    + "begins at them (earliest if none). Also the default transactional id prefix.");

    public static final ConfigOption<String> TRANSACTIONAL_ID_PREFIX = ConfigOptions.key(
                    "kafka.transactional-id-prefix")
            .stringType()
            .noDefaultValue()
            .withDescription("Prefix of the sinks' transactional ids, unique per job and stable across its "
                    + "restarts; each sink appends its own suffix. Defaults to kafka.group-id.");

    public static final ConfigOption<Duration> TRANSACTION_TIMEOUT = ConfigOptions.key("kafka.transaction-timeout")
            .durationType()
            .defaultValue(Duration.ofMinutes(15))
            .withDescription("transaction.timeout.ms of the sinks. Must not exceed "
                    + "kafka.broker-transaction-max-timeout and must exceed "
                    + "(execution.checkpointing.tolerable-failed-checkpoints + 1) * (execution.checkpointing.interval "
                    + "+ execution.checkpointing.min-pause + execution.checkpointing.timeout) + "
                    + "kafka.transaction-restart-allowance.");

    public static final ConfigOption<Duration> RUNNING_JOB_CHECK = ConfigOptions.key("kafka.running-job-check")
            .durationType()
            .noDefaultValue()
            .withDescription("How long a start watches the sinks' transactional ids for another job that uses "
                    + "them (same kafka.transactional-id-prefix) and refuses to start if one does; only when "
                    + "ids with the prefix exist. 0 s skips the check. Default: twice "
                    + "execution.checkpointing.interval.");

    public static final ConfigOption<String> LINEAGE_TOPIC = ConfigOptions.key("kafka.lineage-topic")
            .stringType()
            .defaultValue("blob-ingest-lineage")
            .withDescription("Compacted topic of one partition where every start claims its lineage (its "
                    + "kafka.transactional-id-prefix) before it writes anything; created if missing. Of two "
                    + "starts of one lineage that overlap, the later is refused.");

    public static final ConfigOption<Duration> LINEAGE_CLAIM_WINDOW = ConfigOptions.key("kafka.lineage-claim-window")
            .durationType()
            .defaultValue(Duration.ofMinutes(1))
            .withDescription("How long the claim of a start that has not ended keeps later starts of its "
                    + "lineage out, unless its launcher ran on the same host and is gone: at least the time a "
                    + "job takes from start to its first Kafka transaction. After it, kafka.running-job-check "
                    + "finds a job that runs.");

    public static final ConfigOption<Duration> BROKER_TRANSACTION_MAX_TIMEOUT = ConfigOptions.key(
                    "kafka.broker-transaction-max-timeout")
            .durationType()
            .defaultValue(Duration.ofMinutes(15))
            .withDescription("The brokers' transaction.max.timeout.ms (Kafka's default: 15 min).");

    public static final ConfigOption<Duration> TRANSACTION_RESTART_ALLOWANCE = ConfigOptions.key(
                    "kafka.transaction-restart-allowance")
            .durationType()
            .defaultValue(Duration.ofMinutes(3))
            .withDescription("Time a transaction must survive beyond the checkpoints it waits for: "
                    + "the gap between a checkpoint completing and the task's notification (which "
                    + "commits), or a failure and the restart that commits it.");

    public static final ConfigOption<MemorySize> DEAD_LETTER_MAX_RECORD_SIZE = ConfigOptions.key(
                    "kafka.dead-letter-max-record-size")
            .memoryType()
            .defaultValue(MemorySize.ofMebiBytes(64))
            .withDescription("max.request.size of the dead-letter producer. A refused record is copied "
                    + "whole, plus two headers, so this must exceed the largest input record; the "
                    + "dead-letter topic's max.message.bytes must allow it too.");

    public static final ConfigOption<Boolean> BOUNDED = ConfigOptions.key("kafka.bounded")
            .booleanType()
            .defaultValue(false)
            .withDescription("Stop at the input offsets that are the latest when the job starts.");

    public static final ConfigOption<Map<String, String>> CLIENT_PROPERTIES = ConfigOptions.key("kafka.properties")
            .mapType()
            .defaultValue(Map.of())
            .withDescription("Extra Kafka client properties for the consumer and both producers "
                    + "(security, tuning), in Flink's map syntax (security.protocol:SASL_SSL,max.request.size:"
                    + "2097152) or one key each (kafka.properties.security.protocol: SASL_SSL). A secret "
                    + "(sasl.jaas.config, a password) must take a key of its own, "
                    + "kafka.properties.sasl.jaas.config, which Flink masks in its logs and web UI; on the "
                    + "one line it is refused. Settings owned by the options above are refused.");

    private BlobKafkaOptions() {}
}
