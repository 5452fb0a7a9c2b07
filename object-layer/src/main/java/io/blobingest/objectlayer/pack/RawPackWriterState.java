package io.blobingest.objectlayer.pack;

import java.util.Objects;

/**
 * An open pack's progress: its metadata, the bytes written so far and the entries they hold.
 * Enough to {@linkplain RawPackWriter#resume resume} writing after a restart. Immutable.
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
        return "RawPackWriterState{" + metadata + ", length=" + length + ", entries=" + entryCount() + '}';
    }
}
