package io.blobingest.objectlayer.storage;

import java.util.Objects;

/**
 * Where one stretch of a {@link ReadableObject#readScattered scattered read} goes: a slice of a
 * byte array, or a hole whose bytes are skipped.
 */
public final class ScatterTarget {

    private final byte[] array;
    private final int offset;
    private final long length;

    private ScatterTarget(byte[] array, int offset, long length) {
        this.array = array;
        this.offset = offset;
        this.length = length;
    }

    /** The next {@code length} bytes go to {@code array[offset, offset + length)}. */
    public static ScatterTarget into(byte[] array, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, Objects.requireNonNull(array, "array").length);
        return new ScatterTarget(array, offset, length);
    }

    /** The next {@code length} bytes are not wanted. */
    public static ScatterTarget skip(long length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative hole length " + length);
        }
        return new ScatterTarget(null, 0, length);
    }

    public boolean isHole() {
        return array == null;
    }

    /** The destination array; {@code null} for a hole. */
    public byte[] array() {
        return array;
    }

    public int offset() {
        return offset;
    }

    /** How many bytes of the object this target covers; fits in an {@code int} unless a hole. */
    public long length() {
        return length;
    }

    /** The number of bytes {@code targets} cover together. */
    public static long totalLength(Iterable<ScatterTarget> targets) {
        long total = 0;
        for (ScatterTarget target : targets) {
            total = Math.addExact(total, target.length);
        }
        return total;
    }

    @Override
    public String toString() {
        return isHole() ? "skip " + length : "into [" + offset + ", +" + length + ")";
    }
}
