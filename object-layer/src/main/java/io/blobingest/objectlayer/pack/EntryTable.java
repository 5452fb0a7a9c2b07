package io.blobingest.objectlayer.pack;

import java.util.Arrays;
import java.util.Objects;

/**
 * A pack's entries in order: each one's payload offset, length and crc32c, and, when the pack
 * records them, its payload's SHA-256. Immutable.
 */
final class EntryTable {

    private final long[] offsets;
    private final long[] lengths;
    private final int[] crcs;
    /** Null when the pack records no hashes. */
    private final EntrySha256s sha256s;

    /** Keeps the arrays themselves: callers hand over arrays nothing else holds. */
    EntryTable(long[] offsets, long[] lengths, int[] crcs) {
        this(offsets, lengths, crcs, null);
    }

    /** Also keeps {@code sha256s} itself (null for none), which nothing may change afterwards. */
    EntryTable(long[] offsets, long[] lengths, int[] crcs, EntrySha256s sha256s) {
        if (offsets.length != lengths.length || offsets.length != crcs.length) {
            throw new IllegalArgumentException("entry arrays differ in length");
        }
        if (sha256s != null && sha256s.count() != offsets.length) {
            throw new IllegalArgumentException(
                    "SHA-256s of " + sha256s.count() + " entries for " + offsets.length + " entries");
        }
        this.offsets = offsets;
        this.lengths = lengths;
        this.crcs = crcs;
        this.sha256s = sha256s;
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

    /** The entries' SHA-256s, or null if the pack records none. Not to be changed. */
    EntrySha256s sha256s() {
        return sha256s;
    }

    /** The same entries with {@code sha256s} (null for none); the arrays are shared, as neither table changes them. */
    EntryTable withSha256s(EntrySha256s sha256s) {
        return new EntryTable(offsets, lengths, crcs, sha256s);
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
                && Arrays.equals(crcs, other.crcs)
                && Objects.equals(sha256s, other.sha256s);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(offsets);
    }
}
