package io.blobingest.objectlayer.pack;

import java.util.Arrays;

/** A pack's entries in order: each one's payload offset, length and crc32c. Immutable. */
final class EntryTable {

    private final long[] offsets;
    private final long[] lengths;
    private final int[] crcs;

    /** Keeps the arrays themselves: callers hand over arrays nothing else holds. */
    EntryTable(long[] offsets, long[] lengths, int[] crcs) {
        if (offsets.length != lengths.length || offsets.length != crcs.length) {
            throw new IllegalArgumentException("entry arrays differ in length");
        }
        this.offsets = offsets;
        this.lengths = lengths;
        this.crcs = crcs;
    }

    int count() {
        return offsets.length;
    }

    long offset(int index) {
        return offsets[index];
    }

    long length(int index) {
        return lengths[index];
    }

    int crc32c(int index) {
        return crcs[index];
    }

    /** Sum of entry lengths, a shared entry counted each time. */
    long payloadBytes() {
        long sum = 0;
        for (long length : lengths) {
            sum += length;
        }
        return sum;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EntryTable other
                && Arrays.equals(offsets, other.offsets)
                && Arrays.equals(lengths, other.lengths)
                && Arrays.equals(crcs, other.crcs);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(offsets);
    }
}
