package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.RawPackFormat.CURRENT_VERSION;
import static io.blobingest.objectlayer.pack.RawPackFormat.ENTRY_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.HEADER_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.MAGIC;
import static io.blobingest.objectlayer.pack.RawPackFormat.TAIL_LENGTH;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Streams a Raw Pack v1 into an {@link OutputStream}: header first, then each entry's payload as
 * it is appended, then, on {@link #finish()}, the entry table, the metadata and the tail. Only the
 * entry table (24 bytes per entry) is kept in memory, never a payload.
 *
 * <p>The writer does not own the stream: it never closes it, and {@link #finish()} flushes but
 * does not close. It assumes nothing else writes to the stream while it is open.
 *
 * <p>A writer can be {@linkplain #state() snapshotted} between appends and {@linkplain
 * #resume(OutputStream, RawPackWriterState) resumed} on a stream positioned at the snapshot's
 * length, which is how an in-progress pack survives a Flink checkpoint.
 *
 * <p>Not thread-safe.
 */
public final class RawPackWriter {

    /**
     * Explicit writer state: appends only while open; finish or abort once. A write that fails
     * leaves an unknown number of bytes in the stream, so the writer becomes {@code FAILED} and
     * refuses everything but {@link #abort()}.
     */
    public enum Status {
        OPEN,
        FINISHED,
        FAILED,
        ABORTED
    }

    private static final int INITIAL_ENTRY_CAPACITY = 64;
    private static final int COPY_BUFFER_SIZE = 64 * 1024;

    private final OutputStream out;
    private final RawPackMetadata metadata;
    private final CRC32C crc = new CRC32C();

    private long position;
    private long payloadBytes;
    private int entryCount;
    private long[] entryOffsets;
    private long[] entryLengths;
    private int[] entryCrcs;
    private Status status = Status.OPEN;
    private byte[] copyBuffer;

    private RawPackWriter(OutputStream out, RawPackMetadata metadata, RawPackWriterState state) {
        this.out = Objects.requireNonNull(out, "out");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        int capacity = Math.max(INITIAL_ENTRY_CAPACITY, state == null ? 0 : state.entryCount());
        this.entryOffsets = new long[capacity];
        this.entryLengths = new long[capacity];
        this.entryCrcs = new int[capacity];
        if (state != null) {
            this.position = state.length();
            this.entryCount = state.entryCount();
            for (int i = 0; i < entryCount; i++) {
                entryOffsets[i] = state.entryOffset(i);
                entryLengths[i] = state.entryLength(i);
                entryCrcs[i] = state.entryCrc32c(i);
                payloadBytes += entryLengths[i];
            }
        }
    }

    /** Starts a new pack: writes the 16-byte header to {@code out}, which must be empty. */
    public static RawPackWriter create(OutputStream out, RawPackMetadata metadata) throws IOException {
        RawPackWriter writer = new RawPackWriter(out, metadata, null);
        writer.writeHeader();
        return writer;
    }

    /**
     * Continues a pack whose first {@code state.length()} bytes are already in {@code out} (for
     * example a recovered {@code RecoverableFsDataOutputStream}).
     */
    public static RawPackWriter resume(OutputStream out, RawPackWriterState state) {
        Objects.requireNonNull(state, "state");
        return new RawPackWriter(out, state.metadata(), state);
    }

    /**
     * Appends one entry.
     *
     * @return the entry reference to store as the descriptor's {@code position}
     */
    public long append(byte[] payload, int offset, int length) throws IOException {
        checkOpen("append");
        Objects.checkFromIndexSize(offset, length, payload.length);
        crc.reset();
        crc.update(payload, offset, length);
        write(payload, offset, length);
        return addEntry(length, (int) crc.getValue());
    }

    /** Appends {@code payload} whole; see {@link #append(byte[], int, int)}. */
    public long append(byte[] payload) throws IOException {
        return append(payload, 0, payload.length);
    }

    /**
     * Appends one entry whose payload is read from {@code in} until its end, without holding it
     * in memory.
     *
     * @return the entry reference to store as the descriptor's {@code position}
     */
    public long append(InputStream in) throws IOException {
        checkOpen("append");
        if (copyBuffer == null) {
            copyBuffer = new byte[COPY_BUFFER_SIZE];
        }
        crc.reset();
        long length = 0;
        int n;
        while ((n = read(in)) >= 0) {
            crc.update(copyBuffer, 0, n);
            write(copyBuffer, 0, n);
            length += n;
        }
        return addEntry(length, (int) crc.getValue());
    }

    /**
     * Adds an entry that points at the same bytes as an earlier one (exact sharing), writing no
     * payload.
     */
    public long appendShared(long entryReference) {
        checkOpen("appendShared");
        int source = Math.toIntExact(RawPackFormat.entryIndex(entryReference));
        if (source >= entryCount) {
            throw new IllegalArgumentException(
                    "entry " + source + " does not exist (pack has " + entryCount + " entries)");
        }
        ensureCapacity();
        entryOffsets[entryCount] = entryOffsets[source];
        entryLengths[entryCount] = entryLengths[source];
        entryCrcs[entryCount] = entryCrcs[source];
        payloadBytes += entryLengths[source];
        return RawPackFormat.entryReference(entryCount++);
    }

    private long addEntry(long length, int crc32c) {
        ensureCapacity();
        entryOffsets[entryCount] = position;
        entryLengths[entryCount] = length;
        entryCrcs[entryCount] = crc32c;
        position += length;
        payloadBytes += length;
        return RawPackFormat.entryReference(entryCount++);
    }

    private void ensureCapacity() {
        if (entryCount == Integer.MAX_VALUE) {
            throw new IllegalStateException("pack is full: " + entryCount + " entries");
        }
        if (entryCount == entryOffsets.length) {
            int capacity = (int) Math.min(Integer.MAX_VALUE, entryOffsets.length * 2L);
            entryOffsets = Arrays.copyOf(entryOffsets, capacity);
            entryLengths = Arrays.copyOf(entryLengths, capacity);
            entryCrcs = Arrays.copyOf(entryCrcs, capacity);
        }
    }

    /**
     * Writes entry table, metadata and tail, then flushes. The stream stays open.
     *
     * @return the pack's total length in bytes
     */
    public long finish() throws IOException {
        checkOpen("finish");
        long footerStart = position;
        byte[] metadataBytes = metadata.toJson(entryCount, payloadBytes);

        CRC32C footerCrc = new CRC32C();
        ByteBuffer entry = ByteBuffer.allocate(ENTRY_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < entryCount; i++) {
            entry.clear();
            entry.putLong(entryOffsets[i])
                    .putLong(entryLengths[i])
                    .putInt(entryCrcs[i])
                    .putInt(0);
            footerCrc.update(entry.array(), 0, ENTRY_LENGTH);
            write(entry.array(), 0, ENTRY_LENGTH);
        }
        footerCrc.update(metadataBytes);
        write(metadataBytes, 0, metadataBytes.length);

        ByteBuffer tail = ByteBuffer.allocate(TAIL_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        tail.putLong(footerStart)
                .putInt(entryCount)
                .putInt(metadataBytes.length)
                .putInt((int) footerCrc.getValue())
                .putShort((short) CURRENT_VERSION)
                .putShort((short) 0)
                .put(MAGIC);
        write(tail.array(), 0, TAIL_LENGTH);
        try {
            out.flush();
        } catch (IOException e) {
            status = Status.FAILED;
            throw e;
        }

        position = footerStart + (long) ENTRY_LENGTH * entryCount + metadataBytes.length + TAIL_LENGTH;
        status = Status.FINISHED;
        return position;
    }

    /**
     * Marks the writer unusable; the caller discards whatever reached the stream. Allowed while
     * open or failed, and again once aborted.
     */
    public void abort() {
        if (status == Status.FINISHED) {
            throw new IllegalStateException("cannot abort a finished pack");
        }
        status = Status.ABORTED;
    }

    /** A snapshot of everything needed to {@linkplain #resume resume} after the last append. */
    public RawPackWriterState state() {
        checkOpen("state");
        return new RawPackWriterState(
                metadata,
                position,
                new EntryTable(
                        Arrays.copyOf(entryOffsets, entryCount),
                        Arrays.copyOf(entryLengths, entryCount),
                        Arrays.copyOf(entryCrcs, entryCount)));
    }

    public Status status() {
        return status;
    }

    /** Bytes written so far (the pack's length once finished). */
    public long length() {
        return position;
    }

    public int entryCount() {
        return entryCount;
    }

    /** Sum of entry lengths (logical bytes), shared entries counted each time. */
    public long payloadBytes() {
        return payloadBytes;
    }

    /** The length the pack will have if finished now. */
    public long finishedLength() {
        return position
                + (long) ENTRY_LENGTH * entryCount
                + metadata.toJson(entryCount, payloadBytes).length
                + TAIL_LENGTH;
    }

    public RawPackMetadata metadata() {
        return metadata;
    }

    private void writeHeader() throws IOException {
        ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        header.put(MAGIC).putShort((short) CURRENT_VERSION).putShort((short) 0).putInt(0);
        write(header.array(), 0, HEADER_LENGTH);
        position = HEADER_LENGTH;
    }

    private void write(byte[] bytes, int offset, int length) throws IOException {
        try {
            out.write(bytes, offset, length);
        } catch (IOException | RuntimeException e) {
            status = Status.FAILED;
            throw e;
        }
    }

    /** Reads the next chunk of an appended stream; a failure here has already written part of it. */
    private int read(InputStream in) throws IOException {
        try {
            return in.read(copyBuffer);
        } catch (IOException | RuntimeException e) {
            status = Status.FAILED;
            throw e;
        }
    }

    private void checkOpen(String operation) {
        if (status != Status.OPEN) {
            throw new IllegalStateException("cannot " + operation + ": pack writer for blob set '" + metadata.blobSet()
                    + "' sidecar " + metadata.blobId() + " is " + status);
        }
    }
}
