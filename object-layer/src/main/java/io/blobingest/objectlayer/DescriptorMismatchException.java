package io.blobingest.objectlayer;

import java.io.IOException;

/**
 * A descriptor does not fit the object it names: a size that differs from the file's or entry's
 * length, an entry index past the pack's last entry, a range beyond the end of the file. The
 * message names the file, the offset, what the descriptor expected and what the object holds.
 */
public final class DescriptorMismatchException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final long offset;

    public DescriptorMismatchException(String file, long offset, String problem, String expected, String found) {
        super(file + ": " + problem + " at offset " + Long.toUnsignedString(offset) + ": expected " + expected
                + ", found " + found);
        this.file = file;
        this.offset = offset;
    }

    public String file() {
        return file;
    }

    /** The byte offset (a u64) in the file the mismatch concerns. */
    public long offset() {
        return offset;
    }
}
