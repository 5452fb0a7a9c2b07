package io.blobingest.sink;

import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/** Every configuration option of {@link RawPackSink}. */
@PublicEvolving
public final class RawPackSinkOptions {

    /** The largest Raw Pack the sink writes, and the default target. */
    public static final MemorySize MAX_PACK_SIZE = MemorySize.ofMebiBytes(1024);

    /** Smallest target accepted: a pack must hold its header, footer and at least a few entries. */
    public static final MemorySize MIN_PACK_TARGET_SIZE = MemorySize.parse("64kb");

    public static final ConfigOption<String> BASE_PATH = ConfigOptions.key("sink.raw-pack.base-path")
            .stringType()
            .noDefaultValue()
            .withDescription("Absolute URI of the storage root, e.g. s3://bucket/blobs or file:///data/blobs. "
                    + "Sidecars go to <base>/<blob_set>/, manifests to <base>/_descriptors/.");

    public static final ConfigOption<MemorySize> PACK_TARGET_SIZE = ConfigOptions.key("sink.raw-pack.pack-target-size")
            .memoryType()
            .defaultValue(MAX_PACK_SIZE)
            .withDescription("A Raw Pack is closed before an entry would make it (footer included) larger than this. "
                    + "A single entry larger than the target gets a pack of its own. At most 1 GiB.");

    public static final ConfigOption<RollPolicy> ROLL_POLICY = ConfigOptions.key("sink.raw-pack.roll-policy")
            .enumType(RollPolicy.class)
            .defaultValue(RollPolicy.ON_CHECKPOINT)
            .withDescription("on-checkpoint: every checkpoint commits a blob set. size-or-time: a blob set stays "
                    + "open across checkpoints until its pack reaches the target size or the roll "
                    + "interval has passed.");

    public static final ConfigOption<Duration> ROLL_INTERVAL = ConfigOptions.key("sink.raw-pack.roll-interval")
            .durationType()
            .defaultValue(Duration.ofMinutes(5))
            .withDescription("size-or-time only: the first checkpoint after a blob set has been open this long "
                    + "commits it.");

    public static final ConfigOption<String> CREATED_BY = ConfigOptions.key("sink.raw-pack.created-by")
            .stringType()
            .defaultValue("blob-ingest")
            .withDescription("The created_by value written into every Raw Pack's metadata.");

    public static final ConfigOption<Boolean> ALLOW_OLDER_RESTORE = ConfigOptions.key(
                    "sink.raw-pack.allow-older-restore")
            .booleanType()
            .defaultValue(false)
            .withDescription("A restore from a checkpoint older than what the job has already delivered (an older "
                    + "retained checkpoint, or a savepoint resumed a second time) is refused, "
                    + "because everything delivered after that checkpoint would be delivered again. "
                    + "true: restore anyway and accept those duplicates; blob sets committed since "
                    + "are never re-opened or overwritten.");

    public static final ConfigOption<Duration> EXTERNAL_COPY_TIMEOUT = ConfigOptions.key(
                    "sink.raw-pack.external-copy-timeout")
            .durationType()
            .defaultValue(Duration.ofMinutes(2))
            .withDescription("The longest the copy of an ingest-mode External blob into a Dedicated sidecar may take, "
                    + "every try included; then the record is a fetch-failed dead letter. The copy "
                    + "holds the checkpoint barrier, so this must be shorter than "
                    + "execution.checkpointing.timeout, and in the ingest job this times "
                    + "external.fetch-concurrency too.");

    public static final ConfigOption<Duration> EXTERNAL_COPY_STALL_TIMEOUT = ConfigOptions.key(
                    "sink.raw-pack.external-copy-stall-timeout")
            .durationType()
            .defaultValue(Duration.ofSeconds(30))
            .withDescription("The longest that copy may wait for the object's status or its next 1 MiB; then the "
                    + "try fails, and is retried while external.fetch-attempts and the copy "
                    + "timeout allow.");

    public static final ConfigOption<ExactSharing> EXACT_SHARING = ConfigOptions.key("sink.raw-pack.exact-sharing")
            .enumType(ExactSharing.class)
            .defaultValue(ExactSharing.OFF)
            .withDescription("off: every blob is stored. within-subtask: a Packed or Dedicated blob whose size and "
                    + "SHA-256 equal those of a blob the same writer subtask already stored gets a "
                    + "descriptor naming that stored object, possibly in an earlier blob set. "
                    + "within-job: the same, with blobs routed to writer subtasks by their content so "
                    + "that identical blobs from any partition meet (one network hop for every blob).");

    public static final ConfigOption<Integer> EXACT_SHARING_INDEX_SIZE = ConfigOptions.key(
                    "sink.raw-pack.exact-sharing.index-size")
            .intType()
            .defaultValue(100_000)
            .withDescription("The most stored objects each writer subtask remembers for exact sharing (about 200 "
                    + "bytes each in memory, and 61 in every checkpoint, which writes the whole index); "
                    + "the least recently used is forgotten first, and a blob equal to a forgotten one "
                    + "is stored again.");

    private RawPackSinkOptions() {}
}
