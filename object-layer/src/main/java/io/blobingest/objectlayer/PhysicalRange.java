package io.blobingest.objectlayer;

import java.net.URI;
import java.util.Objects;

/** Bytes {@code [offset, offset + length)} of one object: what a plan reads. */
public record PhysicalRange(URI location, long offset, long length) {

    public PhysicalRange {
        Objects.requireNonNull(location, "location");
        if (offset < 0 || length < 0 || offset > Long.MAX_VALUE - length) {
            throw new IllegalArgumentException(
                    "invalid range of " + location + ": offset " + offset + " length " + length);
        }
    }

    public long end() {
        return offset + length;
    }
}
