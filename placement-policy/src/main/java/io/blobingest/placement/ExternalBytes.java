package io.blobingest.placement;

import java.util.Objects;

/**
 * An exact byte range of an external object, checked to lie inside it when it was fetched: the
 * bytes of a {@link Placement#DEDICATED} blob that the sink copies from the object itself, because
 * they are too large to travel through the job.
 *
 * @param location the object, as {@link ExternalFetch#location()}: no query, no fragment
 * @param offset first byte of the range
 * @param length bytes in the range; the copy fails if the object ends earlier
 */
public record ExternalBytes(String location, long offset, long length) {

    public ExternalBytes {
        Objects.requireNonNull(location, "location");
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("external byte range must have offset and length >= 0, found offset "
                    + offset + ", length " + length);
        }
    }
}
