package io.blobingest.sink.internal.writer;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.ExternalCopyException;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.RollPolicy;
import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.sink.internal.delivery.CommittedDescriptorEmitter;
import io.blobingest.sink.internal.delivery.DescriptorDrainOperator;
import io.blobingest.sink.internal.sharing.ContentHashing;
import io.blobingest.sink.internal.sharing.ContentId;
import io.blobingest.sink.internal.sharing.SharedObjectIndex;
import io.blobingest.sink.internal.sharing.StoredObject;
import io.blobingest.sink.internal.state.BlobSetWriterState;
import io.blobingest.sink.internal.state.SharedObjectsState;
import io.blobingest.sink.internal.state.WriterState;
import io.blobingest.storage.ReadThreads;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Future;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One writer subtask: keeps one open blob set, rolls its Raw Pack at the target size and hands
 * closed blob sets to the committer at checkpoints (phase one of the two-phase commit).
 *
 * <ul>
 *   <li>{@code on-checkpoint}: every {@link #prepareCommit()} seals the open set; writer state
 *       is always empty.
 *   <li>{@code size-or-time}: the set is sealed when its pack would exceed the target size, when
 *       the roll interval has passed at a checkpoint, or at end of input; in between, {@link
 *       #snapshotState} persists the open pack and keeps the set in writer state.
 * </ul>
 *
 * On restore the first recovered set is continued and any others (after a downscale) are sealed
 * at once and committed with the next checkpoint.
 *
 * <p>With {@link ExactSharing} on, a Packed or Dedicated blob whose content equals an object in
 * the writer's {@link SharedObjectIndex} gets a row naming that object and writes no bytes. Such a
 * blob is hashed on a thread of its own ({@link ContentHashing}) and placed when the next blob
 * arrives, or at the next {@link #flush}, {@link #prepareCommit} or {@link #snapshotState}: every
 * blob {@link #write} took is in the checkpoint taken after it, rows in input order.
 *
 * <p>{@link #write} throws {@link io.blobingest.placement.ExternalCopyException} when a Dedicated
 * blob's external source cannot be copied within its bounds; the writer is then as it was before
 * that blob, and the fetch stage in front of it dead-letters the record.
 */
@Internal
public final class RawPackSinkWriter
        implements StatefulSinkWriter<PlacedBlob, WriterState>, CommittingSinkWriter<PlacedBlob, BlobSetCommittable> {

    private static final Logger LOG = LoggerFactory.getLogger(RawPackSinkWriter.class);
    /** Threads that read Dedicated blobs' sources: one copying, one more still in a read it was interrupted in. */
    private static final int COPY_THREADS = 2;
    /** How long closing waits for the copy threads to end. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    private final SinkSettings settings;
    private final RecoverableWriter fs;
    private final ProcessingTimeService time;
    private final BlobSetNames names;
    private final WriterMetrics metrics;
    private final ReadThreads copyThreads;
    private final SidecarDurability durability;
    private final List<BlobSetCommittable> sealed = new ArrayList<>();
    /** Null when exact sharing is off. */
    private final SharedObjectIndex sharing;
    /** Null when exact sharing is off. */
    private final ContentHashing hashing;

    /** A shareable blob {@link #write} took whose hash may still be computing: placed before anything else. */
    private HashingBlob hashingBlob;

    private OpenBlobSet current;
    private boolean endOfInput;

    /**
     * @param subtask this writer's subtask index, part of every blob set name
     * @param time the clock of the roll interval
     * @param restored the parts of the restored checkpoint's writer state (blob sets open then,
     *     objects exact sharing remembered), empty on a fresh start
     */
    public RawPackSinkWriter(
            SinkSettings settings,
            RecoverableWriter fs,
            int subtask,
            ProcessingTimeService time,
            SinkWriterMetricGroup metricGroup,
            Collection<WriterState> restored)
            throws IOException {
        if (settings.rollPolicy() == RollPolicy.SIZE_OR_TIME && !fs.supportsResume()) {
            throw new IOException("roll policy " + RollPolicy.SIZE_OR_TIME + " keeps packs open across checkpoints, "
                    + "but the file system of " + settings.basePath() + " cannot resume a written file");
        }
        this.settings = settings;
        this.fs = fs;
        this.time = time;
        this.names = BlobSetNames.forNewRun(subtask);
        this.sharing =
                settings.exactSharing() == ExactSharing.OFF ? null : new SharedObjectIndex(settings.sharingIndexSize());
        this.hashing = sharing == null ? null : new ContentHashing("content-hash-" + subtask);
        this.metrics = new WriterMetrics(metricGroup, sharing == null ? null : sharing::size);
        // The copy waits for room on the task thread (ReadThreads.awaitRoom): nothing to wake.
        this.copyThreads = ReadThreads.join("external-copy-" + subtask + "-", COPY_THREADS, () -> {});
        this.durability = FileSystem.get(settings.base().toUri()).isDistributedFS()
                ? SidecarDurability.onTaskThread()
                : SidecarDurability.inBackground("sidecar-durability-" + subtask);
        restore(restored);
    }

    private void restore(Collection<WriterState> restored) throws IOException {
        List<BlobSetWriterState> openSets = new ArrayList<>();
        for (WriterState part : restored) {
            if (part instanceof BlobSetWriterState open) {
                openSets.add(open);
            } else {
                restoreSharedObjects((SharedObjectsState) part);
            }
        }
        Iterator<BlobSetWriterState> states = openSets.iterator();
        while (states.hasNext()) {
            BlobSetWriterState state = states.next();
            if (alreadyCommitted(state)) {
                continue;
            }
            OpenBlobSet set = OpenBlobSet.restore(state, settings, fs, copyThreads, durability);
            if (current == null) {
                current = set;
                if (sharing != null) {
                    sharing.filling(set.name());
                }
                LOG.info("Continuing blob set {} from the restored checkpoint", set.name());
            } else {
                try (set) {
                    sealed.add(seal(set));
                }
                LOG.info("Sealed extra restored blob set {}; it commits with the next checkpoint", set.name());
            }
        }
    }

    /**
     * Takes over the objects a checkpoint remembered, unless sharing is now off or they are under
     * another base (their blob sets are not there). After a rescale the parts of several subtasks
     * may arrive here; with {@code within-job} routing some of their objects now route elsewhere and
     * are only found again by blobs that reach this subtask.
     */
    private void restoreSharedObjects(SharedObjectsState state) {
        if (sharing == null) {
            return;
        }
        if (!state.basePath().equals(settings.basePath())) {
            LOG.info(
                    "Not sharing the {} objects the restored checkpoint remembered: they are under {}, this job writes"
                            + " to {}",
                    state.objects().size(),
                    state.basePath(),
                    settings.basePath());
            return;
        }
        sharing.restore(state.objects());
    }

    /**
     * A set open in the restored checkpoint whose manifest exists was sealed and committed after that
     * checkpoint: the restore is from an older checkpoint (or a savepoint resumed twice). Continuing
     * it would re-open, and then overwrite, a committed set; its rows up to the checkpoint are in
     * that committed set, the later ones are replayed from the source.
     */
    private boolean alreadyCommitted(BlobSetWriterState state) throws IOException {
        Path manifest = BlobSetLayout.manifestPath(settings.base(), state.blobSet());
        if (!manifest.getFileSystem().exists(manifest)) {
            return false;
        }
        String what = "blob set " + state.blobSet() + " is open in the restored checkpoint but was committed after "
                + "it (" + manifest + " exists): the checkpoint is older than the job's committed output";
        if (!settings.allowOlderRestore()) {
            throw new IOException(what + ". Restore the job's latest checkpoint, or set "
                    + RawPackSinkOptions.ALLOW_OLDER_RESTORE.key() + ": true to accept duplicates.");
        }
        LOG.warn(
                "{}; not re-opened ({}: true), its rows up to the checkpoint stay in the committed set",
                what,
                RawPackSinkOptions.ALLOW_OLDER_RESTORE.key());
        return true;
    }

    @Override
    public void write(PlacedBlob blob, Context context) throws IOException {
        if (sharing != null && isShareable(blob)) {
            HashingBlob next = new HashingBlob(blob, hashing.hash(blob.bytes()));
            placeHashingBlob();
            hashingBlob = next;
            return;
        }
        placeHashingBlob();
        place(blob, null);
    }

    /** Places the blob that was hashing, if any, once its hash is known. */
    private void placeHashingBlob() throws IOException {
        if (hashingBlob != null) {
            HashingBlob blob = hashingBlob;
            hashingBlob = null;
            place(blob.blob(), ContentHashing.await(blob.id()));
        }
    }

    /** @param id the blob's content identity if exact sharing may share it, else null */
    private void place(PlacedBlob blob, ContentId id) throws IOException {
        StoredObject stored = id == null ? null : sharing.find(id);
        if (stored != null) {
            openSetIfNone();
            current.addShared(blob, stored);
            metrics.shared(blob);
            return;
        }
        if (current != null
                && blob.placement() == Placement.PACKED
                && current.packWouldExceedTarget(blob.bytes().length)) {
            if (settings.rollPolicy() == RollPolicy.SIZE_OR_TIME) {
                sealCurrent();
            } else {
                current.closePack();
            }
        }
        openSetIfNone();
        DescriptorRow row;
        try {
            row = current.add(blob, id);
        } catch (ExternalCopyException e) {
            if (current.isEmpty()) {
                // Opened for this blob: a set is never sealed empty, and a checkpoint may come next.
                discardEmptySet();
            }
            throw e;
        }
        if (id != null) {
            sharing.add(new StoredObject(id, row.blobSet(), row.blob(), row.crc32c()));
        }
        metrics.placed(blob);
    }

    /** Whether exact sharing may share {@code blob}: Packed or Dedicated, its bytes at hand. */
    private static boolean isShareable(PlacedBlob blob) {
        boolean stored = blob.placement() == Placement.PACKED || blob.placement() == Placement.DEDICATED;
        return stored && blob.bytes() != null;
    }

    private void openSetIfNone() {
        if (current == null) {
            current = OpenBlobSet.start(
                    names.next(), time.getCurrentProcessingTime(), settings, fs, copyThreads, durability);
            if (sharing != null) {
                sharing.filling(current.name());
            }
        }
    }

    /** Closes the open set, which holds no row and wrote nothing; the next blob opens another. */
    private void discardEmptySet() {
        OpenBlobSet empty = current;
        current = null;
        if (sharing != null) {
            sharing.filling(null);
        }
        try {
            empty.close();
        } catch (IOException e) {
            LOG.warn("Could not release empty blob set {} (it holds nothing)", empty.name(), e);
        }
    }

    @Override
    public void flush(boolean endOfInput) throws IOException {
        placeHashingBlob();
        this.endOfInput |= endOfInput;
    }

    /**
     * {@code MAX_WATERMARK} announces the end of input before {@link #flush(boolean)} does (see
     * {@link DescriptorDrainOperator}): the open blob set is sealed at the next checkpoint, so its
     * descriptors can still be delivered.
     */
    @Override
    public void writeWatermark(Watermark watermark) {
        if (watermark.getTimestamp() == Long.MAX_VALUE) {
            endOfInput = true;
        }
    }

    @Override
    public Collection<BlobSetCommittable> prepareCommit() throws IOException {
        placeHashingBlob();
        if (current != null
                && (settings.rollPolicy() == RollPolicy.ON_CHECKPOINT || endOfInput || rollIntervalPassed())) {
            sealCurrent();
        }
        List<BlobSetCommittable> committables = List.copyOf(sealed);
        sealed.clear();
        return committables;
    }

    @Override
    public List<WriterState> snapshotState(long checkpointId) throws IOException {
        placeHashingBlob();
        List<WriterState> parts = new ArrayList<>(2);
        if (current != null) {
            parts.add(current.snapshot());
        }
        List<StoredObject> shareable = sharing == null ? List.of() : sharing.sealedObjects();
        if (!shareable.isEmpty()) {
            parts.add(new SharedObjectsState(settings.basePath(), shareable));
        }
        return parts;
    }

    /**
     * Abandons the open blob set, if any: it was never committed, and a restore replays its blobs.
     * Flink 2.2 closes a failed task's operators inside its failure handler, where any exception is
     * fatal to the whole TaskManager ("FATAL - exception in exception handler", {@code
     * Task.doRun}); releasing the open pack's stream can fail there for the very reason the task
     * failed (on a full disk, Flink's S3 stream fails its close flushing its buffer). That failure
     * is logged, not thrown: nothing committed depends on the stream, and its in-progress file stays
     * hidden for {@code gc}.
     */
    @Override
    public void close() {
        if (current != null) {
            OpenBlobSet abandoned = current;
            current = null;
            try {
                abandoned.close();
            } catch (IOException | RuntimeException e) {
                LOG.warn(
                        "Could not release the open pack of abandoned blob set {} (never committed; its blobs are"
                                + " replayed from the last checkpoint, its in-progress file stays hidden)",
                        abandoned.name(),
                        e);
            }
        }
        stopCopyThreads();
        durability.close();
        if (hashing != null) {
            hashing.close();
        }
    }

    /** Like the rest of {@link #close()}, never throws: a copy thread left behind is a daemon, bounded by 2. */
    private void stopCopyThreads() {
        try {
            List<String> stuck = copyThreads.stop(CLOSE_WAIT);
            if (!stuck.isEmpty()) {
                LOG.warn(
                        "{} external copy threads did not end within {} ms of being interrupted and are left to end "
                                + "on their own: {}",
                        stuck.size(),
                        CLOSE_WAIT.toMillis(),
                        stuck);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("Interrupted while stopping the external copy threads; they are interrupted and end on their own");
        }
    }

    private boolean rollIntervalPassed() {
        return time.getCurrentProcessingTime() - current.createdAtMillis()
                >= settings.rollInterval().toMillis();
    }

    /** A shareable blob and its hash in the making. */
    private record HashingBlob(PlacedBlob blob, Future<ContentId> id) {}

    private void sealCurrent() throws IOException {
        OpenBlobSet set = current;
        current = null;
        if (sharing != null) {
            sharing.filling(null);
        }
        try (set) {
            BlobSetCommittable committable = seal(set);
            sealed.add(committable);
            LOG.debug(
                    "Sealed blob set {}: {} rows, {} sidecars",
                    set.name(),
                    committable.rowCount(),
                    committable.sidecars().size());
        }
    }

    /**
     * Seals {@code set}; with exact sharing its committable carries the index size of the moment,
     * the set's own objects included, for the job's summary ({@link CommittedDescriptorEmitter}).
     */
    private BlobSetCommittable seal(OpenBlobSet set) throws IOException {
        BlobSetCommittable committable = set.seal();
        return sharing == null ? committable : committable.withSharingIndexEntries(sharing.size());
    }
}
