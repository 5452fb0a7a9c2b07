package io.blobingest.objectlayer.pack;

import java.util.Arrays;
import java.util.Objects;

/**
 * An open pack's progress: its metadata, the bytes written so far and the entries they hold.
 * Enough to {@linkplain RawPackWriter#resume resume} writing after a restart. Immutable.
 */
public final class RawPackWriterState {

    private final RawPackMetadata metadata;
    private final long length;
    private final long[] entryOffsets;
    private final long[] entryLengths;
    private final int[] entryCrcs;

    public RawPackWriterState(
            RawPackMetadata metadata,
            long length,
            long[] entryOffsets,
            long[] entryLengths,
            int[] entryCrcs) {
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        if (entryOffsets.length != entryLengths.length || entryOffsets.length != entryCrcs.length) {
            throw new IllegalArgumentException("entry arrays differ in length");
        }
        if (length < RawPackFormat.HEADER_LENGTH) {
            throw new IllegalArgumentException(
                    "an open pack is at least " + RawPackFormat.HEADER_LENGTH + " bytes, found " + length);
        }
        for (int i = 0; i < entryOffsets.length; i++) {
            if (entryOffsets[i] < RawPackFormat.HEADER_LENGTH
                    || entryLengths[i] < 0
                    || entryOffsets[i] + entryLengths[i] > length) {
                throw new IllegalArgumentException(
                        "entry " + i + " [" + entryOffsets[i] + ", +" + entryLengths[i]
                                + ") lies outside the written payload [16, " + length + ")");
            }
        }
        this.length = length;
        this.entryOffsets = entryOffsets.clone();
        this.entryLengths = entryLengths.clone();
        this.entryCrcs = entryCrcs.clone();
    }

    public RawPackMetadata metadata() {
        return metadata;
    }

    /** Bytes written so far: header plus payloads. */
    public long length() {
        return length;
    }

    public int entryCount() {
        return entryOffsets.length;
    }

    public long entryOffset(int index) {
        return entryOffsets[index];
    }

    public long entryLength(int index) {
        return entryLengths[index];
    }

    public int entryCrc32c(int index) {
        return entryCrcs[index];
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof RawPackWriterState other)) {
            return false;
        }
        return length == other.length
                && metadata.equals(other.metadata)
                && Arrays.equals(entryOffsets, other.entryOffsets)
                && Arrays.equals(entryLengths, other.entryLengths)
                && Arrays.equals(entryCrcs, other.entryCrcs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(metadata, length, Arrays.hashCode(entryOffsets));
    }

    @Override
    public String toString() {
        return "RawPackWriterState{" + metadata + ", length=" + length + ", entries=" + entryCount() + '}';
    }
}
