package io.blobingest.objectlayer;

import java.util.Objects;

/**
 * Everything needed to read and decode one blob, known before any payload byte is read: the single
 * range to read and how to decode it. Reading a plan never needs another object.
 *
 * @param ref what was planned
 * @param range the physical bytes to read
 * @param logicalSize how many bytes {@code decoder} yields
 * @param decoder turns the range's bytes into the blob's bytes
 */
public record BlobReadPlan(BlobObjectRef ref, PhysicalRange range, long logicalSize, PayloadDecoder decoder) {

    public BlobReadPlan {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(decoder, "decoder");
        if (logicalSize < 0) {
            throw new IllegalArgumentException("logical size must be >= 0, found " + logicalSize);
        }
        if (!range.location().equals(ref.location())) {
            throw new IllegalArgumentException("a plan reads only its own object: ref names " + ref.location()
                    + ", range names " + range.location());
        }
    }
}
