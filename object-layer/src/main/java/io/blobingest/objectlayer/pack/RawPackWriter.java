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
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Streams a Raw Pack v1 into an {@link OutputStream}: header first, then each entry's payload as
 * it is appended, then, on {@link #finish()}, the entry table, the metadata and the tail. Only the
 * entry table (24 bytes per entry) is kept in memory, never a payload.
 *
 * <p>A writer created or resumed to record entry hashes also writes each entry's payload SHA-256
 * into the metadata ({@value RawPackFormat#META_ENTRY_SHA256}), holding 32 more bytes per entry.
 * It takes a SHA-256 the caller already computed ({@link #append(byte[], byte[])}) and computes
 * one itself for any other append, while the bytes pass; an entry it resumed without one stays
 * unknown ({@code null}). A writer that does not record hashes writes exactly the metadata it
 * always did.
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
    /** {@code metadata.toJson(0, 0).length}, from which the metadata's length at any counts follows. */
    private final int metadataLengthWithZeroCounts;

    private final CRC32C crc = new CRC32C();

    private long position;
    private long payloadBytes;
    private int entryCount;
    private long[] entryOffsets;
    private long[] entryLengths;
    private int[] entryCrcs;
    /** Null when the writer records no entry hashes. */
    private final EntrySha256s entrySha256s;
    /** Hashes appends whose SHA-256 the caller did not give; created on first use. */
    private MessageDigest sha256;

    private Status status = Status.OPEN;
    private byte[] copyBuffer;

    private RawPackWriter(
            OutputStream out, RawPackMetadata metadata, RawPackWriterState state, boolean recordEntrySha256) {
        this.out = Objects.requireNonNull(out, "out");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.metadataLengthWithZeroCounts = metadata.toJson(0, 0).length;
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
        this.entrySha256s = recordEntrySha256 ? new EntrySha256s(capacity) : null;
        if (recordEntrySha256 && state != null) {
            for (int i = 0; i < entryCount; i++) {
                entrySha256s.add(state.entrySha256(i).orElse(null));
            }
        }
    }

    /**
     * Starts a new pack that records no entry hashes: writes the 16-byte header to {@code out},
     * which must be empty.
     */
    public static RawPackWriter create(OutputStream out, RawPackMetadata metadata) throws IOException {
        return create(out, metadata, false);
    }

    /**
     * Starts a new pack: writes the 16-byte header to {@code out}, which must be empty.
     *
     * @param recordEntrySha256 whether the footer records each entry's payload SHA-256
     */
    public static RawPackWriter create(OutputStream out, RawPackMetadata metadata, boolean recordEntrySha256)
            throws IOException {
        RawPackWriter writer = new RawPackWriter(out, metadata, null, recordEntrySha256);
        writer.writeHeader();
        return writer;
    }

    /**
     * Continues a pack whose first {@code state.length()} bytes are already in {@code out} (for
     * example a recovered {@code RecoverableFsDataOutputStream}), recording entry hashes if the
     * state does.
     */
    public static RawPackWriter resume(OutputStream out, RawPackWriterState state) {
        Objects.requireNonNull(state, "state");
        return resume(out, state, state.recordsEntrySha256());
    }

    /**
     * Continues a pack as {@link #resume(OutputStream, RawPackWriterState)} does, recording entry
     * hashes or not as {@code recordEntrySha256} says: the entries of a state without hashes are
     * then unknown ({@code null}) and only later appends have one; a state's hashes are dropped if
     * it is false.
     */
    public static RawPackWriter resume(OutputStream out, RawPackWriterState state, boolean recordEntrySha256) {
        Objects.requireNonNull(state, "state");
        return new RawPackWriter(out, state.metadata(), state, recordEntrySha256);
    }

    /**
     * Appends one entry.
     *
     * @return the entry reference to store as the descriptor's {@code position}
     */
    public long append(byte[] payload, int offset, int length) throws IOException {
        checkOpen("append");
        Objects.checkFromIndexSize(offset, length, payload.length);
        byte[] payloadSha256 = null;
        if (entrySha256s != null) {
            MessageDigest digest = sha256();
            digest.update(payload, offset, length);
            payloadSha256 = digest.digest();
        }
        return append(payload, offset, length, payloadSha256);
    }

    /**
     * Appends {@code payload} whole, whose SHA-256 the caller has already computed: the writer
     * records it as given, without hashing the payload again.
     *
     * @param sha256 the payload's 32-byte SHA-256
     * @return the entry reference to store as the descriptor's {@code position}
     * @throws IllegalStateException if this writer does not record entry hashes
     */
    public long append(byte[] payload, byte[] sha256) throws IOException {
        checkOpen("append");
        if (entrySha256s == null) {
            throw new IllegalStateException("cannot append with a SHA-256: pack writer for blob set '"
                    + metadata.blobSet() + "' sidecar " + metadata.blobId() + " records no entry hashes");
        }
        if (sha256.length != RawPackFormat.SHA256_LENGTH) {
            throw new IllegalArgumentException(
                    "a SHA-256 has " + RawPackFormat.SHA256_LENGTH + " bytes, found " + sha256.length);
        }
        return append(payload, 0, payload.length, sha256);
    }

    private long append(byte[] payload, int offset, int length, byte[] payloadSha256) throws IOException {
        crc.reset();
        crc.update(payload, offset, length);
        write(payload, offset, length);
        return addEntry(length, (int) crc.getValue(), payloadSha256);
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
        MessageDigest digest = entrySha256s == null ? null : sha256();
        long length = 0;
        int n;
        while ((n = read(in)) >= 0) {
            crc.update(copyBuffer, 0, n);
            if (digest != null) {
                digest.update(copyBuffer, 0, n);
            }
            write(copyBuffer, 0, n);
            length += n;
        }
        return addEntry(length, (int) crc.getValue(), digest == null ? null : digest.digest());
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
        if (entrySha256s != null) {
            entrySha256s.addCopyOf(source);
        }
        payloadBytes += entryLengths[source];
        return RawPackFormat.entryReference(entryCount++);
    }

    private long addEntry(long length, int crc32c, byte[] payloadSha256) {
        ensureCapacity();
        if (entrySha256s != null) {
            entrySha256s.add(payloadSha256);
        }
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
        byte[] metadataBytes = metadata.toJson(entryCount, payloadBytes, entrySha256s);

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
                        Arrays.copyOf(entryCrcs, entryCount),
                        entrySha256s == null ? null : entrySha256s.copy()));
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

    /** True if the footer records each entry's payload SHA-256. */
    public boolean recordsEntrySha256() {
        return entrySha256s != null;
    }

    /**
     * The length the pack will have if finished now. Computed without writing the footer's metadata,
     * in the same few steps however many entries the pack has.
     */
    public long finishedLength() {
        return position
                + (long) ENTRY_LENGTH * entryCount
                + RawPackMetadata.jsonLength(metadataLengthWithZeroCounts, entryCount, payloadBytes)
                + (entrySha256s == null ? 0 : entrySha256s.jsonFieldLength())
                + TAIL_LENGTH;
    }

    /**
     * The length the pack will have if one more entry of {@code payloadLength} bytes is appended
     * (not shared) and it is then finished: what a size limit is checked against before every
     * append, so it is computed without writing the footer's metadata, in the same few steps however
     * many entries the pack has.
     */
    public long finishedLengthAfterAppend(long payloadLength) {
        int entries = entryCount + 1;
        return position
                + payloadLength
                + (long) ENTRY_LENGTH * entries
                + RawPackMetadata.jsonLength(metadataLengthWithZeroCounts, entries, payloadBytes + payloadLength)
                + (entrySha256s == null ? 0 : entrySha256s.jsonFieldLengthWithOneMore())
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

    /** The writer's digest, created on first use; {@code digest()} leaves it reset for the next append. */
    private MessageDigest sha256() {
        if (sha256 == null) {
            sha256 = EntrySha256s.newDigest();
        }
        return sha256;
    }

    private void checkOpen(String operation) {
        if (status != Status.OPEN) {
            throw new IllegalStateException("cannot " + operation + ": pack writer for blob set '" + metadata.blobSet()
                    + "' sidecar " + metadata.blobId() + " is " + status);
        }
    }
}
