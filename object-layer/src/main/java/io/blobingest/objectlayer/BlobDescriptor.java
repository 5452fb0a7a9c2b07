package io.blobingest.objectlayer;

import java.util.Objects;

/**
 * Lance Blob v2's stored descriptor: {@code struct<kind: uint8, position: uint64, size: uint64,
 * blob_id: uint32, blob_uri: utf8>}. {@code position} and {@code size} are unsigned 64-bit values
 * held in longs; {@code blobId} is an unsigned 32-bit value held in a long.
 *
 * <p>Validated per kind against spec.md section 1 on construction.
 */
public record BlobDescriptor(BlobKind kind, long position, long size, long blobId, String blobUri) {

    public BlobDescriptor {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(blobUri, "blobUri");
        DescriptorValidation.validate(kind, position, size, blobId, blobUri);
    }

    public static BlobDescriptor inline(long size) {
        return new BlobDescriptor(BlobKind.INLINE, 0, size, 0, "");
    }

    /** An object-backed Packed descriptor: {@code entryReference} has bit 63 set. */
    public static BlobDescriptor packed(long entryReference, long size, long sidecarId) {
        return new BlobDescriptor(BlobKind.PACKED, entryReference, size, sidecarId, "");
    }

    public static BlobDescriptor dedicated(long size, long sidecarId) {
        return new BlobDescriptor(BlobKind.DEDICATED, 0, size, sidecarId, "");
    }

    /** {@code position = 0, size = 0} means the whole object. */
    public static BlobDescriptor external(String uri, long position, long size) {
        return new BlobDescriptor(BlobKind.EXTERNAL, position, size, 0, uri);
    }

    /** True for a Packed descriptor whose position is an entry reference (needs a pack reader). */
    public boolean isObjectBacked() {
        return kind == BlobKind.PACKED && position < 0;
    }
}
