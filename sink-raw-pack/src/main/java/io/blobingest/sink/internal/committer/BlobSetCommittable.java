package io.blobingest.sink.internal.committer;

import io.blobingest.objectlayer.BlobSets;
import io.blobingest.sink.internal.writer.BlobSetLayout;
import io.blobingest.sink.internal.writer.PendingSidecar;
import io.blobingest.sink.internal.writer.SidecarKind;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableWriter.CommitRecoverable;

/**
 * One closed blob set, ready to be published: its sidecars and its manifest, all written and
 * closed for commit. Committing it makes the sidecars visible first and the manifest last.
 *
 * @param basePath the storage root the set was written under
 * @param rowCount rows in the manifest
 * @param sidecars every Raw Pack and Dedicated sidecar of the set, in the order they were closed
 * @param manifestLength the manifest file's length in bytes
 * @param manifest what the file system needs to publish the manifest
 * @param sharingIndexEntries the objects the writer's exact sharing index remembered when it sealed
 *     the set, or {@link #NO_SHARING_INDEX}: sharing off, or a committable read from version 1 bytes
 */
@Internal
public record BlobSetCommittable(
        String basePath,
        String blobSet,
        long rowCount,
        List<PendingSidecar> sidecars,
        long manifestLength,
        CommitRecoverable manifest,
        long sharingIndexEntries) {

    /** {@link #sharingIndexEntries} of a set sealed without exact sharing, or whose index size is not known. */
    public static final long NO_SHARING_INDEX = -1;

    public BlobSetCommittable {
        Objects.requireNonNull(basePath, "basePath");
        BlobSets.requireValidName(blobSet);
        Objects.requireNonNull(manifest, "manifest");
        sidecars = List.copyOf(sidecars);
        if (rowCount < 1) {
            throw new IllegalArgumentException("a committed blob set has at least one row, found " + rowCount);
        }
        if (sharingIndexEntries < NO_SHARING_INDEX) {
            throw new IllegalArgumentException("blob set '" + blobSet + "': sharing index entries must be >= 0, or "
                    + NO_SHARING_INDEX + " without an index, found " + sharingIndexEntries);
        }
    }

    /** This set as sealed by a writer whose exact sharing index then remembered {@code entries} objects. */
    public BlobSetCommittable withSharingIndexEntries(long entries) {
        return new BlobSetCommittable(basePath, blobSet, rowCount, sidecars, manifestLength, manifest, entries);
    }

    public Path manifestPath() {
        return BlobSetLayout.manifestPath(new Path(basePath), blobSet);
    }

    public Path sidecarPath(PendingSidecar sidecar) {
        return BlobSetLayout.sidecarPath(new Path(basePath), blobSet, sidecar.sidecarId());
    }

    public long count(SidecarKind kind) {
        return sidecars.stream().filter(s -> s.kind() == kind).count();
    }

    /** Sum of the sidecars' lengths. */
    public long sidecarBytes() {
        return sidecars.stream().mapToLong(PendingSidecar::length).sum();
    }
}
