package io.blobingest.objectlayer.pack;

import java.io.IOException;

/**
 * A pack cannot be read. The message always names the file, the offset, what was expected and
 * what was found, e.g. {@code /data/s/1000.blob: bad magic at offset 4064: expected "BLOBPACK",
 * found "BLOBPACX"}.
 */
public class PackFormatException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final long offset;

    PackFormatException(String file, long offset, String problem, String expected, String found) {
        super(file + ": " + problem + " at offset " + offset + ": expected " + expected + ", found " + found);
        this.file = file;
        this.offset = offset;
    }

    /** The pack's location. */
    public String file() {
        return file;
    }

    /** The byte offset in the file where the fault was found. */
    public long offset() {
        return offset;
    }
}
