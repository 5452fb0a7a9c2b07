package io.blobingest.objectlayer.pack;

import java.util.Objects;

/**
 * One thing wrong with a pack, as found by {@link RawPackVerifier}.
 *
 * @param file the pack's location
 * @param offset the byte offset in the file where the fault was found
 * @param message the whole error text: file, problem, offset, expected versus found
 */
public record PackFault(String file, long offset, String message) {

    public PackFault {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(message, "message");
    }

    static PackFault of(PackFormatException e) {
        return new PackFault(e.file(), e.offset(), e.getMessage());
    }
}
