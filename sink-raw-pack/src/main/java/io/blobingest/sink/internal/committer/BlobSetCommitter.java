package io.blobingest.sink.internal.committer;

import io.blobingest.sink.internal.writer.PendingSidecar;
import io.blobingest.sink.internal.writer.SidecarKind;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.fs.RecoverableWriter.CommitRecoverable;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes closed blob sets (phase two of the two-phase commit): every sidecar first, the
 * manifest last, so that a manifest's presence means its whole blob set is durable.
 *
 * <p>Assumptions, in the manner of Iceberg's {@code IcebergFilesCommitter}:
 *
 * <ul>
 *   <li>Flink calls {@link #commit} only for blob sets of completed checkpoints, on {@code
 *       notifyCheckpointComplete} and again, for those still in the committer's state, when a job
 *       restores from a checkpoint. The same blob set may therefore be committed more than once.
 *   <li>Each file is published with {@code recoverForCommit(recoverable).commitAfterRecovery()},
 *       which completes a pending file and accepts one that is already published. Committing a
 *       blob set twice is harmless: the second time finds every file in place and changes
 *       nothing.
 *   <li>Nobody deletes in-progress files of blob sets that may still be committed (a janitor may
 *       remove hidden in-progress files only once no retained checkpoint can refer to them).
 * </ul>
 *
 * After publishing, each file's length is checked against the length recorded when it was
 * written. A missing or different file (its in-progress data was lost, or the storage was changed
 * under the job) fails the commit with an {@link IOException} naming the file, before the
 * manifest is published: the job fails rather than announce bytes that are not there.
 */
@Internal
public final class BlobSetCommitter implements Committer<BlobSetCommittable> {

    private static final Logger LOG = LoggerFactory.getLogger(BlobSetCommitter.class);

    /** Values the histograms keep for their statistics. */
    static final int HISTOGRAM_WINDOW = 1000;

    private final Map<String, RecoverableWriter> writers = new HashMap<>();
    private final long packTargetSize;
    private final Counter blobSetsCommitted;
    private final Counter packsCommitted;
    private final Counter dedicatedCommitted;
    private final Counter rowsCommitted;
    private final Histogram packFillPercent;
    private final Histogram commitLatencyMs;

    /** @param packTargetSize {@code sink.raw-pack.pack-target-size}, for the fill of each pack */
    public BlobSetCommitter(MetricGroup metrics, long packTargetSize) {
        this.packTargetSize = packTargetSize;
        this.blobSetsCommitted = metrics.counter("blobSetsCommitted");
        this.packsCommitted = metrics.counter("packsCommitted");
        this.dedicatedCommitted = metrics.counter("dedicatedSidecarsCommitted");
        this.rowsCommitted = metrics.counter("rowsCommitted");
        this.packFillPercent =
                metrics.histogram("packFillPercent", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        this.commitLatencyMs =
                metrics.histogram("commitLatencyMs", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
    }

    @Override
    public void commit(Collection<CommitRequest<BlobSetCommittable>> requests) throws IOException {
        for (CommitRequest<BlobSetCommittable> request : requests) {
            commit(request.getCommittable());
        }
    }

    private void commit(BlobSetCommittable set) throws IOException {
        RecoverableWriter writer = writerFor(set.basePath());
        for (PendingSidecar sidecar : set.sidecars()) {
            publish(writer, set.sidecarPath(sidecar), sidecar.recoverable(), sidecar.length(), set.blobSet());
            if (sidecar.kind() == SidecarKind.RAW_PACK) {
                packFillPercent.update(100 * sidecar.length() / packTargetSize);
            }
        }
        FileStatus manifest = publish(writer, set.manifestPath(), set.manifest(), set.manifestLength(), set.blobSet());
        // The manifest is written when the set is sealed, at the checkpoint barrier, and its
        // modification time survives publishing: local rename keeps it, an S3 object keeps the start
        // of its upload. So this is the time from the checkpoint to the set being visible.
        commitLatencyMs.update(Math.max(0, System.currentTimeMillis() - manifest.getModificationTime()));

        long packs = set.count(SidecarKind.RAW_PACK);
        long dedicated = set.count(SidecarKind.DEDICATED);
        blobSetsCommitted.inc();
        packsCommitted.inc(packs);
        dedicatedCommitted.inc(dedicated);
        rowsCommitted.inc(set.rowCount());
        LOG.info(
                "Committed blob set {}: {} rows, {} packs, {} dedicated, {} sidecar bytes, manifest {}",
                set.blobSet(),
                set.rowCount(),
                packs,
                dedicated,
                set.sidecarBytes(),
                set.manifestPath());
    }

    private static FileStatus publish(
            RecoverableWriter writer, Path path, CommitRecoverable recoverable, long expectedLength, String blobSet)
            throws IOException {
        writer.recoverForCommit(recoverable).commitAfterRecovery();
        FileStatus status;
        try {
            status = path.getFileSystem().getFileStatus(path);
        } catch (FileNotFoundException e) {
            throw new IOException(
                    "blob set " + blobSet + ": " + path + " is missing after commit; its in-progress "
                            + "data is gone, so the blob set cannot be published",
                    e);
        }
        if (status.getLen() != expectedLength) {
            throw new IOException("blob set " + blobSet + ": " + path + " has " + status.getLen()
                    + " bytes after commit, expected " + expectedLength);
        }
        return status;
    }

    private RecoverableWriter writerFor(String basePath) throws IOException {
        RecoverableWriter writer = writers.get(basePath);
        if (writer == null) {
            writer = FileSystem.get(new Path(basePath).toUri()).createRecoverableWriter();
            writers.put(basePath, writer);
        }
        return writer;
    }

    @Override
    public void close() {}
}
