package io.blobingest.job;

import java.time.Duration;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * The job's own options: placement, input limits and fetching external blobs. Kafka options are
 * in {@code io.blobingest.kafka.BlobKafkaOptions}, storage and pack options in {@code
 * io.blobingest.sink.RawPackSinkOptions}, checkpointing is Flink's own ({@code
 * execution.checkpointing.*}). All of them are set the same ways: a config file ({@code --config})
 * or {@code -Dkey=value} on the command line.
 */
@PublicEvolving
public final class IngestJobOptions {

    public static final ConfigOption<MemorySize> INLINE_MAX_SIZE = ConfigOptions.key("placement.inline-max-size")
            .memoryType()
            .defaultValue(MemorySize.parse("64kb"))
            .withDescription("Blobs of at most this size are Inline (Lance's default: 64 KiB).");

    public static final ConfigOption<MemorySize> DEDICATED_THRESHOLD = ConfigOptions.key(
                    "placement.dedicated-threshold")
            .memoryType()
            .defaultValue(MemorySize.parse("4mb"))
            .withDescription("Blobs larger than this get a Dedicated sidecar (Lance's default: 4 MiB); blobs between"
                    + " the inline maximum and this are Packed. Must exceed placement.inline-max-size.");

    public static final ConfigOption<List<String>> EXTERNAL_ALLOWED_PREFIXES = ConfigOptions.key(
                    "external.allowed-prefixes")
            .stringType()
            .asList()
            .defaultValues()
            .withDescription("URI prefixes External blobs may come from, ';'-separated, matched at path boundaries"
                    + " (e.g. s3://robots/raw/;file:///data/). Default: none, so every External"
                    + " record is dead-lettered as uri-not-allowed. A file: object is read only if no"
                    + " symbolic link lies on its path below the prefix and it has one hard link.");

    /** Checked for every blob, Kafka-carried or External: hence not under {@code external.}, its old key. */
    public static final ConfigOption<MemorySize> MAX_BLOB_SIZE = ConfigOptions.key("placement.max-blob-size")
            .memoryType()
            .defaultValue(MemorySize.parse("16gb"))
            .withDeprecatedKeys("external.max-bytes")
            .withDescription("Largest blob accepted, wherever its bytes are; larger ones are dead-lettered as"
                    + " too-large. Deprecated key: external.max-bytes.");

    public static final ConfigOption<Integer> EXTERNAL_FETCH_CONCURRENCY = ConfigOptions.key(
                    "external.fetch-concurrency")
            .intType()
            .defaultValue(4)
            .withDescription("Ingest mode: external objects fetched at once per subtask. Each fetch holds at most"
                    + " placement.dedicated-threshold bytes in memory; larger objects are streamed"
                    + " into their Dedicated sidecar by the sink.");

    public static final ConfigOption<Integer> EXTERNAL_FETCH_ATTEMPTS = ConfigOptions.key("external.fetch-attempts")
            .intType()
            .defaultValue(3)
            .withDescription("Ingest mode: tries in all to read an external object after transient errors, before"
                    + " the record is dead-lettered as fetch-failed (1: no retry). The sink's copy of a"
                    + " Dedicated blob retries as often.");

    public static final ConfigOption<Duration> EXTERNAL_FETCH_BACKOFF = ConfigOptions.key("external.fetch-backoff")
            .durationType()
            .defaultValue(Duration.ofSeconds(1))
            .withDescription("Ingest mode: wait before the second try; it doubles before each further one.");

    public static final ConfigOption<Duration> EXTERNAL_FETCH_TIMEOUT = ConfigOptions.key("external.fetch-timeout")
            .durationType()
            .defaultValue(Duration.ofMinutes(2))
            .withDescription("Ingest mode: a fetch (every try and wait included) without a result after this long is"
                    + " abandoned and its record dead-lettered as fetch-failed. Does not bound the"
                    + " sink's copy of a Dedicated blob.");

    public static final ConfigOption<Boolean> EXTERNAL_FORCE_INGEST = ConfigOptions.key("external.force-ingest")
            .booleanType()
            .defaultValue(false)
            .withDescription("Fetch and place every External blob, also those sent with blob.mode=reference: how"
                    + " backfill --input-topic re-enters a topic of references. A bad blob.mode is"
                    + " still bad-uri.");

    private IngestJobOptions() {}
}
