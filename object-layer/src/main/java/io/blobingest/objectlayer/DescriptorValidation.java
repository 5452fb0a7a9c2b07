package io.blobingest.objectlayer;

/** The per-kind rules of SPEC section 1's descriptor table, in one place. */
final class DescriptorValidation {

    private DescriptorValidation() {}

    static void validate(BlobKind kind, long position, long size, long blobId, String blobUri) {
        if (blobId < 0 || blobId > 0xFFFF_FFFFL) {
            throw invalid(kind, "blob_id must be a u32, found " + blobId);
        }
        switch (kind) {
            case INLINE -> {
                require(kind, position == 0, "position must be 0, found " + Long.toUnsignedString(position));
                require(kind, blobId == 0, "blob_id must be 0, found " + blobId);
                require(kind, blobUri.isEmpty(), "blob_uri must be empty");
            }
            case PACKED -> {
                require(kind, blobId != 0, "blob_id must name a sidecar (0 is reserved)");
                require(kind, blobUri.isEmpty(), "blob_uri must be empty");
            }
            case DEDICATED -> {
                require(kind, position == 0, "position must be 0, found " + Long.toUnsignedString(position));
                require(kind, blobId != 0, "blob_id must name a sidecar (0 is reserved)");
                require(kind, blobUri.isEmpty(), "blob_uri must be empty");
            }
            case EXTERNAL -> {
                require(kind, blobId == 0, "blob_id must be 0, found " + blobId);
                require(kind, !blobUri.isEmpty(), "blob_uri must be an absolute URI, found empty");
                require(kind, Long.compareUnsigned(position, -1L - size) <= 0,
                        "position + size overflows u64");
            }
        }
    }

    private static void require(BlobKind kind, boolean condition, String message) {
        if (!condition) {
            throw invalid(kind, message);
        }
    }

    private static IllegalArgumentException invalid(BlobKind kind, String message) {
        return new IllegalArgumentException("invalid " + kind + " descriptor: " + message);
    }
}
