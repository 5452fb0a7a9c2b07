package io.blobingest.objectlayer.pack;

import java.util.Objects;
import java.util.Optional;

/**
 * An open pack's progress: its metadata, the bytes written so far and the entries they hold (with
 * their payloads' SHA-256s when the writer records them). Enough to {@linkplain RawPackWriter#resume
 * resume} writing after a restart. Immutable.
 */
public final class RawPackWriterState {

    private final RawPackMetadata metadata;
    private final long length;
    private final EntryTable entries;

    public RawPackWriterState(
            RawPackMetadata metadata, long length, long[] entryOffsets, long[] entryLengths, int[] entryCrcs) {
        this(metadata, length, new EntryTable(entryOffsets.clone(), entryLengths.clone(), entryCrcs.clone()));
    }

    RawPackWriterState(RawPackMetadata metadata, long length, EntryTable entries) {
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        if (length < RawPackFormat.HEADER_LENGTH) {
            throw new IllegalArgumentException(
                    "an open pack is at least " + RawPackFormat.HEADER_LENGTH + " bytes, found " + length);
        }
        for (int i = 0; i < entries.count(); i++) {
            if (entries.offset(i) < RawPackFormat.HEADER_LENGTH
                    || entries.length(i) < 0
                    || entries.offset(i) + entries.length(i) > length) {
                throw new IllegalArgumentException("entry " + i + " [" + entries.offset(i) + ", +" + entries.length(i)
                        + ") lies outside the written payload [16, " + length + ")");
            }
        }
        this.length = length;
        this.entries = entries;
    }

    public RawPackMetadata metadata() {
        return metadata;
    }

    /** Bytes written so far: header plus payloads. */
    public long length() {
        return length;
    }

    public int entryCount() {
        return entries.count();
    }

    public long entryOffset(int index) {
        return entries.offset(index);
    }

    public long entryLength(int index) {
        return entries.length(index);
    }

    public int entryCrc32c(int index) {
        return entries.crc32c(index);
    }

    /** True if the writer records each entry's SHA-256 ({@value RawPackFormat#META_ENTRY_SHA256}). */
    public boolean recordsEntrySha256() {
        return entries.sha256s() != null;
    }

    /** A copy of entry {@code index}'s payload SHA-256; empty if not recorded or not known. */
    public Optional<byte[]> entrySha256(int index) {
        EntrySha256s sha256s = entries.sha256s();
        return sha256s == null ? Optional.empty() : Optional.ofNullable(sha256s.get(index));
    }

    /**
     * This state with its entries' payload SHA-256s: item {@code i} (32 bytes, copied) for entry
     * {@code i}, null where it is not known. A writer resumed from it records them.
     */
    public RawPackWriterState withEntrySha256(byte[][] sha256) {
        if (sha256.length != entries.count()) {
            throw new IllegalArgumentException(
                    "SHA-256s of " + sha256.length + " entries for a pack of " + entries.count() + " entries");
        }
        EntrySha256s sha256s = new EntrySha256s(sha256.length);
        for (byte[] digest : sha256) {
            sha256s.add(digest);
        }
        return new RawPackWriterState(metadata, length, entries.withSha256s(sha256s));
    }

    EntryTable entries() {
        return entries;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RawPackWriterState other
                && length == other.length
                && metadata.equals(other.metadata)
                && entries.equals(other.entries);
    }

    @Override
    public int hashCode() {
        return Objects.hash(metadata, length, entries);
    }

    @Override
    public String toString() {
        return "RawPackWriterState{" + metadata + ", length=" + length + ", entries=" + entryCount()
                + (recordsEntrySha256() ? ", with entry_sha256" : "") + '}';
    }
}
