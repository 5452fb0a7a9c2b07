package io.blobingest.objectlayer.pack;

/** The bytes contradict the format: bad magic, crc mismatch, truncation, out-of-bounds entry. */
public final class CorruptPackException extends PackFormatException {

    private static final long serialVersionUID = 1L;

    public CorruptPackException(String file, long offset, String problem, String expected, String found) {
        super(file, offset, problem, expected, found);
    }
}
