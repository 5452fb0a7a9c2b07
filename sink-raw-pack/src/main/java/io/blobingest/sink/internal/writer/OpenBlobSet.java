package io.blobingest.sink.internal.writer;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.objectlayer.pack.RawPackWriter;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.ExternalCopyException;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.sink.internal.sharing.ContentId;
import io.blobingest.sink.internal.sharing.StoredObject;
import io.blobingest.sink.internal.state.BlobSetWriterState;
import io.blobingest.sink.manifest.DescriptorManifestWriter;
import io.blobingest.storage.ReadThreads;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.fs.RecoverableWriter.ResumeRecoverable;

/**
 * The blob set a writer subtask is filling: its name, its sidecar id counter, at most one open
 * Raw Pack, the sidecars already closed for commit, and the descriptor rows of everything added.
 *
 * <p>Every file goes through {@link RecoverableWriter}, so nothing is visible under its final
 * name until a committer publishes it. Inline and External blobs write no bytes; their rows carry
 * everything. A Dedicated blob with a {@linkplain PlacedBlob#source() source} is streamed from its
 * external object through a fixed buffer, never held in memory whole ({@link ExternalCopy}).
 *
 * <p>With exact sharing on, the set's packs record each entry's SHA-256 in their footers ({@code
 * entry_sha256}): the one exact sharing computed for the blob, never a second.
 *
 * <p>Lifecycle: {@link #add} any number of times, then either {@link #seal} (once; the set is then
 * done) or {@link #snapshot} (the set stays open), and {@link #close} when abandoned. Not
 * thread-safe.
 */
final class OpenBlobSet implements AutoCloseable {

    /** Coalesces the pack's small writes (entry table rows) before they reach the file system. */
    private static final int WRITE_BUFFER_SIZE = 64 * 1024;

    private final String name;
    private final long createdAtMillis;
    private final String basePath;
    private final Path base;
    private final RecoverableWriter fs;
    private final long packTargetSize;
    private final String createdBy;
    private final boolean recordEntrySha256;
    private final SidecarDurability durability;
    private final ExternalCopy externalCopy;
    private final List<PendingSidecar> finishedSidecars;
    private final List<DescriptorRow> rows;
    private final CRC32C crc = new CRC32C();
    private long nextSidecarId;
    private OpenPack openPack;
    private boolean sealed;

    private OpenBlobSet(
            String name,
            long createdAtMillis,
            SinkSettings settings,
            RecoverableWriter fs,
            ReadThreads copyThreads,
            SidecarDurability durability,
            long nextSidecarId,
            List<PendingSidecar> finishedSidecars,
            List<DescriptorRow> rows) {
        this.name = BlobSets.requireValidName(name);
        this.createdAtMillis = createdAtMillis;
        this.basePath = settings.basePath();
        this.base = settings.base();
        this.fs = fs;
        this.packTargetSize = settings.packTargetSize();
        this.createdBy = settings.createdBy();
        this.recordEntrySha256 = settings.exactSharing() != ExactSharing.OFF;
        this.durability = durability;
        this.externalCopy = new ExternalCopy(settings, fs, copyThreads, durability);
        this.nextSidecarId = nextSidecarId;
        this.finishedSidecars = new ArrayList<>(finishedSidecars);
        this.rows = new ArrayList<>(rows);
    }

    /** A new, empty blob set. */
    static OpenBlobSet start(
            String name,
            long nowMillis,
            SinkSettings settings,
            RecoverableWriter fs,
            ReadThreads copyThreads,
            SidecarDurability durability) {
        return new OpenBlobSet(name, nowMillis, settings, fs, copyThreads, durability, 1, List.of(), List.of());
    }

    /** Continues a blob set from a checkpoint: the open pack is recovered at its persisted length. */
    static OpenBlobSet restore(
            BlobSetWriterState state,
            SinkSettings settings,
            RecoverableWriter fs,
            ReadThreads copyThreads,
            SidecarDurability durability)
            throws IOException {
        OpenBlobSet set = new OpenBlobSet(
                state.blobSet(),
                state.createdAtMillis(),
                settings,
                fs,
                copyThreads,
                durability,
                state.nextSidecarId(),
                state.finishedSidecars(),
                state.rows());
        BlobSetWriterState.OpenPackState pack = state.openPack();
        if (pack != null) {
            RawPackMetadata metadata = pack.pack().metadata();
            if (!metadata.blobSet().equals(state.blobSet()) || metadata.blobId() != pack.sidecarId()) {
                throw new IOException("restored open pack of blob set '" + state.blobSet() + "' sidecar "
                        + pack.sidecarId() + " has metadata for blob set '" + metadata.blobSet() + "' sidecar "
                        + metadata.blobId());
            }
            RecoverableFsDataOutputStream stream = fs.recover(pack.resumable());
            try {
                long position = stream.getPos();
                if (position != pack.pack().length()) {
                    throw new IOException("recovered pack " + set.sidecarPath(pack.sidecarId()) + " is at offset "
                            + position + ", its checkpointed entry table expects offset "
                            + pack.pack().length());
                }
                BufferedOutputStream buffer = packBuffer(stream);
                // A pack checkpointed by a writer that recorded no hashes records them from here on (its
                // earlier entries' are unknown); with sharing now off, it drops them.
                RawPackWriter writer = RawPackWriter.resume(buffer, pack.pack(), set.recordEntrySha256);
                set.openPack = new OpenPack(pack.sidecarId(), stream, buffer, writer);
            } catch (IOException | RuntimeException e) {
                SidecarDurability.closeAfterFailure(stream, e);
                throw e;
            }
        }
        return set;
    }

    String name() {
        return name;
    }

    long createdAtMillis() {
        return createdAtMillis;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    /**
     * True if the open pack already holds an entry and appending {@code length} more payload bytes
     * would make the finished pack, footer included, larger than the target size.
     */
    boolean packWouldExceedTarget(long length) {
        if (openPack == null || openPack.writer.entryCount() == 0) {
            return false;
        }
        return openPack.writer.finishedLengthAfterAppend(length) > packTargetSize;
    }

    /**
     * Places {@code blob} in this set and returns its descriptor row.
     *
     * @param id the blob's content identity if exact sharing computed it, else null; a Packed
     *     blob's pack records its SHA-256 from here rather than hashing the bytes again
     * @throws ExternalCopyException if a Dedicated blob's source could not be copied; the set is as
     *     it was before
     */
    DescriptorRow add(PlacedBlob blob, ContentId id) throws IOException {
        checkNotSealed("add a blob");
        byte[] bytes = blob.bytes();
        DescriptorRow row = switch (blob.placement()) {
            case INLINE -> row(blob, BlobDescriptor.inline(bytes.length), null, bytes, crc32c(bytes));
            case EXTERNAL -> row(blob, blob.external(), null, null, null);
            case PACKED -> {
                if (openPack == null) {
                    openPack = openPack(allocateSidecarId());
                }
                long entryReference =
                        id == null ? openPack.writer.append(bytes) : openPack.writer.append(bytes, id.sha256());
                durability.packWritten(openPack.stream, bytes.length);
                yield row(
                        blob,
                        BlobDescriptor.packed(entryReference, bytes.length, openPack.sidecarId),
                        name,
                        null,
                        crc32c(bytes));
            }
            case DEDICATED -> {
                long sidecarId = allocateSidecarId();
                if (bytes == null) {
                    long crc32c;
                    try {
                        crc32c = externalCopy.copy(blob.source(), sidecarId, sidecarPath(sidecarId), name);
                    } catch (ExternalCopyException e) {
                        nextSidecarId = sidecarId; // the record becomes a dead letter: its id is free again
                        throw e;
                    }
                    yield row(blob, BlobDescriptor.dedicated(blob.source().length(), sidecarId), name, null, crc32c);
                }
                writeDedicated(sidecarId, bytes);
                yield row(blob, BlobDescriptor.dedicated(bytes.length, sidecarId), name, null, crc32c(bytes));
            }
        };
        rows.add(row);
        return row;
    }

    /**
     * Adds a row for {@code blob} that names {@code stored}, an object with the same size and
     * SHA-256, in this set or in one sealed before it; no bytes are written.
     *
     * @throws IllegalStateException if the blob's crc32c differs from the stored object's: the
     *     identity said equal, so what remembers the object is wrong
     */
    void addShared(PlacedBlob blob, StoredObject stored) {
        checkNotSealed("add a blob");
        long crc32c = crc32c(blob.bytes());
        if (crc32c != stored.crc32c()) {
            throw new IllegalStateException("blob " + blob.record().topic() + "/"
                    + blob.record().partition() + "/"
                    + blob.record().offset() + " has the size and SHA-256 of sidecar "
                    + stored.descriptor().blobId()
                    + " position " + Long.toUnsignedString(stored.descriptor().position()) + " of blob set '"
                    + stored.blobSet() + "', but crc32c " + crc32c + " where that object has " + stored.crc32c());
        }
        rows.add(row(blob, stored.descriptor(), stored.blobSet(), null, crc32c));
    }

    /** Finishes the open pack (footer) and closes it for commit; the next Packed blob starts a new pack. */
    void closePack() throws IOException {
        checkNotSealed("close a pack");
        // The Dedicated sidecars written before the pack keep their place before it.
        finishedSidecars.addAll(durability.awaitClosed());
        if (openPack == null) {
            return;
        }
        OpenPack pack = openPack;
        openPack = null;
        try {
            durability.awaitPackSync();
            long length = pack.writer.finish();
            RecoverableFsDataOutputStream.Committer committer = pack.stream.closeForCommit();
            finishedSidecars.add(
                    new PendingSidecar(pack.sidecarId, SidecarKind.RAW_PACK, length, committer.getRecoverable()));
        } catch (IOException | RuntimeException e) {
            SidecarDurability.closeAfterFailure(pack.stream, e);
            throw e;
        }
    }

    /**
     * Closes the set: finishes the open pack, writes the manifest (closed for commit too) and
     * returns what the committer needs to publish all of it, without a sharing index size (the
     * writer's to add). Must not be empty.
     */
    BlobSetCommittable seal() throws IOException {
        if (rows.isEmpty()) {
            throw new IllegalStateException("blob set '" + name + "' is empty; an empty set is never committed");
        }
        closePack();
        sealed = true;
        Path manifestPath = BlobSetLayout.manifestPath(base, name);
        RecoverableFsDataOutputStream out = fs.open(manifestPath);
        try {
            DescriptorManifestWriter.write(name, rows, out);
            long length = out.getPos();
            RecoverableFsDataOutputStream.Committer committer = out.closeForCommit();
            return new BlobSetCommittable(
                    basePath,
                    name,
                    rows.size(),
                    finishedSidecars,
                    length,
                    committer.getRecoverable(),
                    BlobSetCommittable.NO_SHARING_INDEX);
        } catch (IOException | RuntimeException e) {
            SidecarDurability.closeAfterFailure(out, e);
            throw e;
        }
    }

    /**
     * What a checkpoint keeps of this open set; the open pack is persisted (made durable up to
     * its current length) so that a restore can continue it.
     */
    BlobSetWriterState snapshot() throws IOException {
        checkNotSealed("snapshot");
        finishedSidecars.addAll(durability.awaitClosed());
        BlobSetWriterState.OpenPackState pack = null;
        if (openPack != null) {
            openPack.buffer.flush();
            durability.awaitPackSync();
            ResumeRecoverable resumable = openPack.stream.persist();
            pack = new BlobSetWriterState.OpenPackState(openPack.sidecarId, resumable, openPack.writer.state());
        }
        return new BlobSetWriterState(name, createdAtMillis, nextSidecarId, finishedSidecars, pack, rows);
    }

    /** Releases the open pack's stream without committing it; its in-progress file stays hidden. */
    @Override
    public void close() throws IOException {
        try {
            durability.release();
        } finally {
            if (openPack != null) {
                OpenPack pack = openPack;
                openPack = null;
                pack.writer.abort();
                pack.stream.close();
            }
        }
    }

    private OpenPack openPack(long sidecarId) throws IOException {
        RecoverableFsDataOutputStream stream = fs.open(sidecarPath(sidecarId));
        try {
            BufferedOutputStream buffer = packBuffer(stream);
            RawPackWriter writer =
                    RawPackWriter.create(buffer, new RawPackMetadata(name, sidecarId, createdBy), recordEntrySha256);
            return new OpenPack(sidecarId, stream, buffer, writer);
        } catch (IOException | RuntimeException e) {
            SidecarDurability.closeAfterFailure(stream, e);
            throw e;
        }
    }

    /** Small writes coalesced, large ones sliced (see {@link SlicingOutputStream}). */
    private static BufferedOutputStream packBuffer(RecoverableFsDataOutputStream stream) {
        return new BufferedOutputStream(new SlicingOutputStream(stream), WRITE_BUFFER_SIZE);
    }

    private void writeDedicated(long sidecarId, byte[] bytes) throws IOException {
        RecoverableFsDataOutputStream stream = fs.open(sidecarPath(sidecarId));
        try {
            new SlicingOutputStream(stream).write(bytes);
        } catch (IOException | RuntimeException e) {
            SidecarDurability.closeAfterFailure(stream, e);
            throw e;
        }
        durability.closeForCommit(sidecarId, bytes.length, stream);
    }

    private long allocateSidecarId() {
        if (nextSidecarId > BlobSets.MAX_SIDECAR_ID) {
            throw new IllegalStateException(
                    "blob set '" + name + "' has used every sidecar id up to " + BlobSets.MAX_SIDECAR_ID);
        }
        return nextSidecarId++;
    }

    private Path sidecarPath(long sidecarId) {
        return BlobSetLayout.sidecarPath(base, name, sidecarId);
    }

    private long crc32c(byte[] bytes) {
        crc.reset();
        crc.update(bytes);
        return crc.getValue();
    }

    private static DescriptorRow row(
            PlacedBlob blob, BlobDescriptor descriptor, String blobSet, byte[] inlineData, Long crc32c) {
        BlobRecord record = blob.record();
        return new DescriptorRow(
                record.key(),
                record.topic(),
                record.partition(),
                record.offset(),
                record.timestamp(),
                descriptor,
                blobSet,
                inlineData,
                crc32c,
                blob.attributes());
    }

    private void checkNotSealed(String operation) {
        if (sealed) {
            throw new IllegalStateException("cannot " + operation + ": blob set '" + name + "' is sealed");
        }
    }

    private static final class OpenPack {
        final long sidecarId;
        final RecoverableFsDataOutputStream stream;
        final BufferedOutputStream buffer;
        final RawPackWriter writer;

        OpenPack(
                long sidecarId,
                RecoverableFsDataOutputStream stream,
                BufferedOutputStream buffer,
                RawPackWriter writer) {
            this.sidecarId = sidecarId;
            this.stream = stream;
            this.buffer = buffer;
            this.writer = writer;
        }
    }
}
