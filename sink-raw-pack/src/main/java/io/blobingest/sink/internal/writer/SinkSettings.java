package io.blobingest.sink.internal.writer;

import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.RollPolicy;
import io.blobingest.storage.RetryPolicy;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.Path;

/**
 * The validated configuration a {@code RawPackSink} ships to its writers and committers.
 *
 * @param basePath the storage root URI
 * @param packTargetSize bytes a pack may reach, footer included
 * @param rollInterval how long a blob set may stay open under {@link RollPolicy#SIZE_OR_TIME}
 * @param externalReadRetries how a copy of a Dedicated blob from its external object is retried
 * @param allowOlderRestore restore from a checkpoint older than what was delivered, accepting duplicates
 * @param externalCopyTimeout the longest a copy from an external object may take, every try included
 * @param externalCopyStallTimeout the longest that copy may wait for its next chunk
 * @param exactSharing whether blobs equal to stored ones share them
 * @param sharingIndexSize the most stored objects a writer subtask remembers for sharing
 * @param externalAllowedPrefixes where a Dedicated blob's {@code file:} source may be copied from
 *     ({@link io.blobingest.storage.ConfinedFileStorage})
 */
@Internal
public record SinkSettings(
        String basePath,
        long packTargetSize,
        RollPolicy rollPolicy,
        Duration rollInterval,
        String createdBy,
        RetryPolicy externalReadRetries,
        boolean allowOlderRestore,
        Duration externalCopyTimeout,
        Duration externalCopyStallTimeout,
        ExactSharing exactSharing,
        int sharingIndexSize,
        List<String> externalAllowedPrefixes)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    public SinkSettings {
        Objects.requireNonNull(basePath, "basePath");
        Objects.requireNonNull(rollPolicy, "rollPolicy");
        Objects.requireNonNull(rollInterval, "rollInterval");
        Objects.requireNonNull(createdBy, "createdBy");
        Objects.requireNonNull(externalReadRetries, "externalReadRetries");
        Objects.requireNonNull(externalCopyTimeout, "externalCopyTimeout");
        Objects.requireNonNull(externalCopyStallTimeout, "externalCopyStallTimeout");
        Objects.requireNonNull(exactSharing, "exactSharing");
        if (sharingIndexSize < 1) {
            throw new IllegalArgumentException("sharingIndexSize must be positive, found " + sharingIndexSize);
        }
        externalAllowedPrefixes = List.copyOf(externalAllowedPrefixes);
    }

    public Path base() {
        return new Path(basePath);
    }
}
