package io.blobingest.placement;

import java.io.Serializable;

/**
 * Decides where an owned blob's bytes go from its size alone, with Lance Blob v2's thresholds as
 * defaults: {@code size <= inlineMaxBytes} is INLINE, {@code size > dedicatedThresholdBytes} is
 * DEDICATED, anything between is PACKED into Raw Packs of at most {@code packMaxBytes}.
 *
 * @param inlineMaxBytes the largest blob kept inline
 * @param dedicatedThresholdBytes blobs strictly larger than this get a sidecar of their own
 * @param packMaxBytes the largest Raw Pack a writer builds; at least {@code dedicatedThresholdBytes}
 *     so that every PACKED blob fits in a pack
 */
public record PlacementPolicy(long inlineMaxBytes, long dedicatedThresholdBytes, long packMaxBytes)
        implements Serializable {

    public static final long LANCE_INLINE_MAX_BYTES = 64L * 1024;
    public static final long LANCE_DEDICATED_THRESHOLD_BYTES = 4L * 1024 * 1024;
    public static final long LANCE_PACK_MAX_BYTES = 1024L * 1024 * 1024;

    public PlacementPolicy {
        if (inlineMaxBytes < 0) {
            throw new IllegalArgumentException("inline maximum must be >= 0 bytes, found " + inlineMaxBytes);
        }
        if (dedicatedThresholdBytes <= inlineMaxBytes) {
            throw new IllegalArgumentException("dedicated threshold (" + dedicatedThresholdBytes
                    + " bytes) must exceed the inline maximum (" + inlineMaxBytes + " bytes)");
        }
        if (packMaxBytes < dedicatedThresholdBytes) {
            throw new IllegalArgumentException("pack maximum (" + packMaxBytes
                    + " bytes) must be >= the dedicated threshold (" + dedicatedThresholdBytes
                    + " bytes), or a PACKED blob could not fit in a pack");
        }
    }

    /** Lance's defaults: inline up to 64 KiB, dedicated above 4 MiB, packs up to 1 GiB. */
    public static PlacementPolicy lanceDefaults() {
        return new PlacementPolicy(LANCE_INLINE_MAX_BYTES, LANCE_DEDICATED_THRESHOLD_BYTES, LANCE_PACK_MAX_BYTES);
    }

    /** INLINE, PACKED or DEDICATED for a blob of {@code sizeBytes} bytes; never EXTERNAL. */
    public Placement place(long sizeBytes) {
        if (sizeBytes < 0) {
            throw new IllegalArgumentException("blob size must be >= 0 bytes, found " + sizeBytes);
        }
        if (sizeBytes <= inlineMaxBytes) {
            return Placement.INLINE;
        }
        return sizeBytes > dedicatedThresholdBytes ? Placement.DEDICATED : Placement.PACKED;
    }
}
