package io.blobingest.objectlayer;

import java.net.URI;
import java.net.URISyntaxException;

/** The per-kind rules of spec.md section 1's descriptor table, in one place. */
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
                // Bit 63 clear: a legacy raw byte offset, so the range must fit in u64.
                require(
                        kind,
                        position < 0 || fitsInU64(position, size),
                        "byte offset " + position + " + size " + Long.toUnsignedString(size) + " overflows u64");
            }
            case DEDICATED -> {
                require(kind, position == 0, "position must be 0, found " + Long.toUnsignedString(position));
                require(kind, blobId != 0, "blob_id must name a sidecar (0 is reserved)");
                require(kind, blobUri.isEmpty(), "blob_uri must be empty");
            }
            case EXTERNAL -> {
                require(kind, blobId == 0, "blob_id must be 0, found " + blobId);
                // The URI is not echoed: it may carry userinfo, which must never reach a log.
                require(kind, isAbsoluteUri(blobUri), "blob_uri must be an absolute URI with a scheme");
                require(
                        kind,
                        fitsInU64(position, size),
                        "position " + Long.toUnsignedString(position) + " + size " + Long.toUnsignedString(size)
                                + " overflows u64");
            }
        }
    }

    private static boolean fitsInU64(long position, long size) {
        return Long.compareUnsigned(position, -1L - size) <= 0;
    }

    private static boolean isAbsoluteUri(String uri) {
        try {
            return new URI(uri).isAbsolute();
        } catch (URISyntaxException e) {
            return false;
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
