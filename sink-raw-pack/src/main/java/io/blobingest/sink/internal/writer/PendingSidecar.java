package io.blobingest.sink.internal.writer;

import io.blobingest.objectlayer.BlobSets;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.RecoverableWriter.CommitRecoverable;

/**
 * A sidecar that is fully written and closed for commit, but not yet visible under its name.
 *
 * @param length the committed file's length in bytes, checked after commit
 * @param recoverable what the file system needs to publish the file
 */
@Internal
public record PendingSidecar(long sidecarId, SidecarKind kind, long length, CommitRecoverable recoverable) {

    public PendingSidecar {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(recoverable, "recoverable");
        if (sidecarId < 1 || sidecarId > BlobSets.MAX_SIDECAR_ID) {
            throw new IllegalArgumentException("sidecar id must be a non-zero u32, found " + sidecarId);
        }
        if (length < 0) {
            throw new IllegalArgumentException("sidecar length must be >= 0, found " + length);
        }
    }
}
