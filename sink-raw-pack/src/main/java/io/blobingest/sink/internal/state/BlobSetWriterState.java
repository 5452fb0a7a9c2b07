package io.blobingest.sink.internal.state;

import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.pack.RawPackWriterState;
import io.blobingest.sink.internal.writer.PendingSidecar;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.RecoverableWriter.ResumeRecoverable;

/**
 * A blob set that stays open across a checkpoint ({@code size-or-time}): enough to continue it
 * after a restore.
 *
 * @param createdAtMillis processing time when the set was opened, for the roll interval
 * @param nextSidecarId the id the next sidecar of this set gets
 * @param finishedSidecars sidecars already closed for commit
 * @param openPack the pack being appended to, or null
 * @param rows the descriptor rows of everything written to the set so far, in write order
 */
@Internal
public record BlobSetWriterState(
        String blobSet,
        long createdAtMillis,
        long nextSidecarId,
        List<PendingSidecar> finishedSidecars,
        OpenPackState openPack,
        List<DescriptorRow> rows)
        implements WriterState {

    public BlobSetWriterState {
        BlobSets.requireValidName(blobSet);
        finishedSidecars = List.copyOf(finishedSidecars);
        rows = List.copyOf(rows);
    }

    /**
     * The open pack of a blob set at a checkpoint.
     *
     * @param resumable the persisted stream position to {@code recover} from
     * @param pack entry table and length, matching {@code resumable}
     */
    public record OpenPackState(long sidecarId, ResumeRecoverable resumable, RawPackWriterState pack) {
        public OpenPackState {
            Objects.requireNonNull(resumable, "resumable");
            Objects.requireNonNull(pack, "pack");
        }
    }
}
