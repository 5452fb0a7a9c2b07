package io.blobingest.objectlayer.storage;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Where one stretch of a {@link ReadableObject#readScattered scattered read} goes: a slice of a
 * byte array, or a hole whose bytes are skipped.
 */
public final class ScatterTarget {

    private final Supplier<byte[]> supplier;
    private byte[] array;
    private final int offset;
    private final long length;

    private ScatterTarget(Supplier<byte[]> supplier, byte[] array, int offset, long length) {
        this.supplier = supplier;
        this.array = array;
        this.offset = offset;
        this.length = length;
    }

    /** The next {@code length} bytes go to {@code array[offset, offset + length)}. */
    public static ScatterTarget into(byte[] array, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, Objects.requireNonNull(array, "array").length);
        return new ScatterTarget(null, array, offset, length);
    }

    /**
     * The next {@code length} bytes go to {@code array[offset, offset + length)} of the array
     * {@code array} supplies when {@link #array()} is first called, just before the bytes arrive:
     * a fresh array is zeroed by the JVM, and zeroed right before it is filled it is still in the
     * CPU cache, while a read's worth of arrays zeroed up front (megabytes) is not.
     */
    public static ScatterTarget into(Supplier<byte[]> array, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, Integer.MAX_VALUE);
        return new ScatterTarget(Objects.requireNonNull(array, "array"), null, offset, length);
    }

    /** The next {@code length} bytes are not wanted. */
    public static ScatterTarget skip(long length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative hole length " + length);
        }
        return new ScatterTarget(null, null, 0, length);
    }

    public boolean isHole() {
        return array == null && supplier == null;
    }

    /** The destination array, supplied on the first call if it was given as a supplier; {@code null} for a hole. */
    public byte[] array() {
        if (array == null && supplier != null) {
            byte[] supplied = Objects.requireNonNull(supplier.get(), "supplied array");
            Objects.checkFromIndexSize(offset, (int) length, supplied.length);
            array = supplied;
        }
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

    /**
     * Reads {@code targets} from {@code position} on one array target at a time, each with its
     * object offset, skipping the holes: the scattered read of a storage that reads target by
     * target.
     */
    public static void readEach(long position, List<ScatterTarget> targets, ArrayRead read) throws IOException {
        long at = position;
        for (ScatterTarget target : targets) {
            if (!target.isHole()) {
                read.read(at, target.array(), target.offset(), (int) target.length());
            }
            at += target.length();
        }
    }

    /** Reads {@code length} bytes of the object at {@code position} into {@code array[offset]}. */
    @FunctionalInterface
    public interface ArrayRead {
        void read(long position, byte[] array, int offset, int length) throws IOException;
    }

    @Override
    public String toString() {
        return isHole() ? "skip " + length : "into [" + offset + ", +" + length + ")";
    }
}
