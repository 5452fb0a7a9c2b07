package io.blobingest.sink;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.sink.internal.writer.SinkSettings;
import io.blobingest.storage.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.Path;

/**
 * Builds a {@link RawPackSink}:
 *
 * <pre>{@code
 * RawPackSink sink = RawPackSink.builder()
 *         .setBasePath("s3://bucket/blobs")
 *         .setRollPolicy(RollPolicy.ON_CHECKPOINT)
 *         .setDescriptorSink(kafkaDescriptorSink)
 *         .build();
 * placedBlobs.sinkTo(sink).uid("raw-pack-sink");
 * }</pre>
 *
 * Every setting is one of {@link RawPackSinkOptions}; {@link #setConfiguration} reads them from a
 * Flink configuration. {@link #build()} checks them and names the offending option on error.
 */
@PublicEvolving
public final class RawPackSinkBuilder {

    private static final List<ConfigOption<?>> OPTIONS = List.of(
            RawPackSinkOptions.BASE_PATH,
            RawPackSinkOptions.PACK_TARGET_SIZE,
            RawPackSinkOptions.ROLL_POLICY,
            RawPackSinkOptions.ROLL_INTERVAL,
            RawPackSinkOptions.CREATED_BY,
            RawPackSinkOptions.ALLOW_OLDER_RESTORE,
            RawPackSinkOptions.EXTERNAL_COPY_TIMEOUT,
            RawPackSinkOptions.EXTERNAL_COPY_STALL_TIMEOUT,
            RawPackSinkOptions.EXACT_SHARING,
            RawPackSinkOptions.EXACT_SHARING_INDEX_SIZE,
            CheckpointingOptions.CHECKPOINTING_TIMEOUT);

    /** Three tries, one second apart and then two. */
    public static final RetryPolicy DEFAULT_EXTERNAL_READ_RETRIES = new RetryPolicy(3, Duration.ofSeconds(1));

    private final Configuration options = new Configuration();
    private Sink<DescriptorRow> descriptorSink;
    private DescriptorDeliveryCheck deliveryCheck;
    private final List<DescriptorOutput> descriptorOutputs = new ArrayList<>();
    private final List<EarlierCommittedRows> earlierRows = new ArrayList<>();
    private RetryPolicy externalReadRetries = DEFAULT_EXTERNAL_READ_RETRIES;
    private List<String> externalAllowedPrefixes = List.of();

    RawPackSinkBuilder() {}

    /**
     * Takes every {@link RawPackSinkOptions} option set in {@code config}, and Flink's checkpoint
     * timeout, which the external copy timeout must stay below; others stay as they are.
     */
    public RawPackSinkBuilder setConfiguration(ReadableConfig config) {
        for (ConfigOption<?> option : OPTIONS) {
            copy(config, option);
        }
        return this;
    }

    /** {@link RawPackSinkOptions#BASE_PATH}: the storage root, an absolute URI or path. */
    public RawPackSinkBuilder setBasePath(String basePath) {
        options.set(RawPackSinkOptions.BASE_PATH, Objects.requireNonNull(basePath, "basePath"));
        return this;
    }

    /** {@link RawPackSinkOptions#PACK_TARGET_SIZE}. */
    public RawPackSinkBuilder setPackTargetSize(MemorySize size) {
        options.set(RawPackSinkOptions.PACK_TARGET_SIZE, Objects.requireNonNull(size, "size"));
        return this;
    }

    /** {@link RawPackSinkOptions#ROLL_POLICY}. */
    public RawPackSinkBuilder setRollPolicy(RollPolicy policy) {
        options.set(RawPackSinkOptions.ROLL_POLICY, Objects.requireNonNull(policy, "policy"));
        return this;
    }

    /** {@link RawPackSinkOptions#EXACT_SHARING}. */
    public RawPackSinkBuilder setExactSharing(ExactSharing sharing) {
        options.set(RawPackSinkOptions.EXACT_SHARING, Objects.requireNonNull(sharing, "sharing"));
        return this;
    }

    /** {@link RawPackSinkOptions#ROLL_INTERVAL}; used by {@link RollPolicy#SIZE_OR_TIME}. */
    public RawPackSinkBuilder setRollInterval(Duration interval) {
        options.set(RawPackSinkOptions.ROLL_INTERVAL, Objects.requireNonNull(interval, "interval"));
        return this;
    }

    /** {@link RawPackSinkOptions#ALLOW_OLDER_RESTORE}. */
    public RawPackSinkBuilder setAllowOlderRestore(boolean allow) {
        options.set(RawPackSinkOptions.ALLOW_OLDER_RESTORE, allow);
        return this;
    }

    /** {@link RawPackSinkOptions#CREATED_BY}. */
    public RawPackSinkBuilder setCreatedBy(String createdBy) {
        options.set(RawPackSinkOptions.CREATED_BY, Objects.requireNonNull(createdBy, "createdBy"));
        return this;
    }

    /**
     * Where committed descriptors go, one {@link DescriptorRow} per blob, only after the blob set
     * holding its bytes is committed. Must be an exactly-once (transactional) sink for the
     * end-to-end guarantee. Without one, descriptors are only in the manifests.
     */
    public RawPackSinkBuilder setDescriptorSink(Sink<DescriptorRow> descriptorSink) {
        this.descriptorSink = Objects.requireNonNull(descriptorSink, "descriptorSink");
        this.deliveryCheck = null;
        return this;
    }

    /**
     * The same, for a descriptor sink whose transaction for an epoch may be aborted after the epoch's
     * checkpoint completed (Kafka: past its transaction timeout, or fenced): {@code deliveryCheck}
     * tells, per epoch, whether it was committed, and the sets of an aborted epoch are emitted again
     * rather than lost. See {@code docs/exactly-once.md}.
     */
    public RawPackSinkBuilder setDescriptorSink(
            Sink<DescriptorRow> descriptorSink, DescriptorDeliveryCheck deliveryCheck) {
        this.descriptorSink = Objects.requireNonNull(descriptorSink, "descriptorSink");
        this.deliveryCheck = Objects.requireNonNull(deliveryCheck, "deliveryCheck");
        return this;
    }

    /**
     * Adds an output of committed descriptors beside the descriptor sink (a Lance dataset, say); it
     * sees the same rows, with the same guarantee that their bytes are committed first.
     */
    public RawPackSinkBuilder addDescriptorOutput(DescriptorOutput output) {
        descriptorOutputs.add(Objects.requireNonNull(output, "output"));
        return this;
    }

    /**
     * Adds rows of blob sets committed before this job (a backfill's passed-through rows) that every
     * {@link #addDescriptorOutput descriptor output} gets as well, once each; the descriptor sink
     * does not (they have their own way to the topic).
     */
    public RawPackSinkBuilder addEarlierCommittedRows(EarlierCommittedRows rows) {
        earlierRows.add(Objects.requireNonNull(rows, "rows"));
        return this;
    }

    /**
     * How the copy of a Dedicated blob from its external object ({@code PlacedBlob#source()}) is
     * retried after a transient read failure: each try starts over in a fresh in-progress file.
     * Default: {@link #DEFAULT_EXTERNAL_READ_RETRIES}.
     */
    public RawPackSinkBuilder setExternalReadRetries(RetryPolicy retries) {
        this.externalReadRetries = Objects.requireNonNull(retries, "retries");
        return this;
    }

    /**
     * The allowed prefixes of external objects (the job's {@code external.allowed-prefixes}): a
     * Dedicated blob's {@code file:} source is copied only from under one of the {@code file:}
     * ones, opened without following any symbolic link below the prefix, and only if it has one
     * hard link ({@code io.blobingest.storage.ConfinedFileStorage}); a source of another scheme is
     * read as named. Default: none, so every {@code file:} source is refused.
     */
    public RawPackSinkBuilder setExternalAllowedPrefixes(List<String> prefixes) {
        this.externalAllowedPrefixes = List.copyOf(prefixes);
        return this;
    }

    public RawPackSink build() {
        sanityCheck();
        SinkSettings settings = new SinkSettings(
                options.get(RawPackSinkOptions.BASE_PATH),
                options.get(RawPackSinkOptions.PACK_TARGET_SIZE).getBytes(),
                options.get(RawPackSinkOptions.ROLL_POLICY),
                options.get(RawPackSinkOptions.ROLL_INTERVAL),
                options.get(RawPackSinkOptions.CREATED_BY),
                externalReadRetries,
                options.get(RawPackSinkOptions.ALLOW_OLDER_RESTORE),
                options.get(RawPackSinkOptions.EXTERNAL_COPY_TIMEOUT),
                options.get(RawPackSinkOptions.EXTERNAL_COPY_STALL_TIMEOUT),
                options.get(RawPackSinkOptions.EXACT_SHARING),
                options.get(RawPackSinkOptions.EXACT_SHARING_INDEX_SIZE),
                externalAllowedPrefixes);
        return new RawPackSink(settings, descriptorSink, deliveryCheck, descriptorOutputs, earlierRows);
    }

    private void sanityCheck() {
        String basePath = options.get(RawPackSinkOptions.BASE_PATH);
        if (basePath == null || basePath.isBlank()) {
            throw new IllegalArgumentException(RawPackSinkOptions.BASE_PATH.key() + " is required");
        }
        Path base;
        try {
            base = new Path(basePath);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    RawPackSinkOptions.BASE_PATH.key() + " is not a valid URI: \"" + basePath + "\"", e);
        }
        if (!base.isAbsolute()) {
            throw new IllegalArgumentException(
                    RawPackSinkOptions.BASE_PATH.key() + " must be absolute, found \"" + basePath + "\"");
        }
        MemorySize target = options.get(RawPackSinkOptions.PACK_TARGET_SIZE);
        if (target.compareTo(RawPackSinkOptions.MIN_PACK_TARGET_SIZE) < 0
                || target.compareTo(RawPackSinkOptions.MAX_PACK_SIZE) > 0) {
            throw new IllegalArgumentException(RawPackSinkOptions.PACK_TARGET_SIZE.key() + " must be between "
                    + RawPackSinkOptions.MIN_PACK_TARGET_SIZE + " and "
                    + RawPackSinkOptions.MAX_PACK_SIZE + ", found "
                    + target);
        }
        requirePositive(RawPackSinkOptions.ROLL_INTERVAL);
        requirePositive(RawPackSinkOptions.EXTERNAL_COPY_STALL_TIMEOUT);
        Duration copyTimeout = requirePositive(RawPackSinkOptions.EXTERNAL_COPY_TIMEOUT);
        Duration checkpointTimeout = options.get(CheckpointingOptions.CHECKPOINTING_TIMEOUT);
        if (copyTimeout.compareTo(checkpointTimeout) >= 0) {
            throw new IllegalArgumentException(RawPackSinkOptions.EXTERNAL_COPY_TIMEOUT.key() + " (" + copyTimeout
                    + ") must be shorter than " + CheckpointingOptions.CHECKPOINTING_TIMEOUT.key() + " ("
                    + checkpointTimeout + "): a copy holds the checkpoint barrier");
        }
        int indexSize = options.get(RawPackSinkOptions.EXACT_SHARING_INDEX_SIZE);
        if (indexSize < 1) {
            throw new IllegalArgumentException(
                    RawPackSinkOptions.EXACT_SHARING_INDEX_SIZE.key() + " must be positive, found " + indexSize);
        }
        String createdBy = options.get(RawPackSinkOptions.CREATED_BY);
        if (!RawPackMetadata.isValidCreatedBy(createdBy)) {
            throw new IllegalArgumentException(RawPackSinkOptions.CREATED_BY.key() + " must be "
                    + RawPackMetadata.CREATED_BY_RULE + " (the packs' created_by), found \"" + createdBy + '"');
        }
    }

    private Duration requirePositive(ConfigOption<Duration> option) {
        Duration duration = options.get(option);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(option.key() + " must be positive, found " + duration);
        }
        return duration;
    }

    private <T> void copy(ReadableConfig config, ConfigOption<T> option) {
        config.getOptional(option).ifPresent(value -> options.set(option, value));
    }
}
