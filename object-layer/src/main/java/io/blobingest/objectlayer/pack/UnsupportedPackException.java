package io.blobingest.objectlayer.pack;

/**
 * The pack may be sound but this reader does not understand it: unknown version, flags, pack type
 * or required feature. Readers refuse rather than guess.
 */
public final class UnsupportedPackException extends PackFormatException {

    private static final long serialVersionUID = 1L;

    public UnsupportedPackException(String file, long offset, String problem, String expected, String found) {
        super(file, offset, problem, expected, found);
    }
}
