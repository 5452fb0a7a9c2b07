package io.blobingest.job;

import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * The job's own options: placement and input limits. Kafka options are in {@code
 * io.blobingest.kafka.BlobKafkaOptions}, storage and pack options in {@code
 * io.blobingest.sink.RawPackSinkOptions}, checkpointing is Flink's own ({@code
 * execution.checkpointing.*}). All of them are set the same ways: a config file ({@code --config})
 * or {@code -Dkey=value} on the command line.
 */
public final class IngestJobOptions {

    public static final ConfigOption<MemorySize> INLINE_MAX_SIZE =
            ConfigOptions.key("placement.inline-max-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("64kb"))
                    .withDescription("Blobs of at most this size are Inline (Lance's default: 64 KiB).");

    public static final ConfigOption<MemorySize> DEDICATED_THRESHOLD =
            ConfigOptions.key("placement.dedicated-threshold")
                    .memoryType()
                    .defaultValue(MemorySize.parse("4mb"))
                    .withDescription(
                            "Blobs larger than this get a Dedicated sidecar (Lance's default: 4 MiB); blobs between"
                                    + " the inline maximum and this are Packed. Must exceed placement.inline-max-size.");

    public static final ConfigOption<List<String>> EXTERNAL_ALLOWED_PREFIXES =
            ConfigOptions.key("external.allowed-prefixes")
                    .stringType()
                    .asList()
                    .defaultValues()
                    .withDescription(
                            "URI prefixes External blobs may come from, ';'-separated, matched at path boundaries"
                                    + " (e.g. s3://robots/raw/;file:///data/). Default: none, so every External"
                                    + " record is dead-lettered as uri-not-allowed.");

    public static final ConfigOption<MemorySize> MAX_BLOB_SIZE =
            ConfigOptions.key("external.max-bytes")
                    .memoryType()
                    .defaultValue(MemorySize.parse("16gb"))
                    .withDescription(
                            "Largest blob accepted, wherever its bytes are; larger ones are dead-lettered as"
                                    + " too-large.");

    private IngestJobOptions() {}
}
