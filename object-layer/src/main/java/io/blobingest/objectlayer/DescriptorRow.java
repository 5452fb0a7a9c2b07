package io.blobingest.objectlayer;

import java.util.List;
import java.util.Objects;

/**
 * One row of a descriptor manifest (spec.md section 5) and one record of the descriptor topic (spec.md
 * section 4): the descriptor plus where its input came from and what travelled with it.
 *
 * @param key the input record's key, may be null
 * @param sourceTimestamp the input record's Kafka timestamp, milliseconds since the epoch; null when
 *     it had none (or it came from a manifest written before the column existed)
 * @param blobSet the blob set whose sidecars {@code blob.blobId()} names; null for Inline and
 *     External
 * @param inlineData the bytes of an Inline blob; null for every other kind
 * @param crc32c crc32c of the logical bytes as an unsigned 32-bit value; null for an External
 *     reference
 * @param attributes headers passed through from the input, in their order (names may repeat)
 */
public record DescriptorRow(
        byte[] key,
        String sourceTopic,
        int sourcePartition,
        long sourceOffset,
        Long sourceTimestamp,
        BlobDescriptor blob,
        String blobSet,
        byte[] inlineData,
        Long crc32c,
        List<Attribute> attributes) {

    /** One passed-through header. */
    public record Attribute(String name, byte[] value) {
        public Attribute {
            Objects.requireNonNull(name, "name");
        }
    }

    public DescriptorRow {
        Objects.requireNonNull(sourceTopic, "sourceTopic");
        Objects.requireNonNull(blob, "blob");
        attributes = List.copyOf(attributes);
        if ((blob.kind() == BlobKind.INLINE) != (inlineData != null)) {
            throw new IllegalArgumentException("inline_data must be set iff kind is INLINE, kind is " + blob.kind());
        }
        if (inlineData != null && inlineData.length != blob.size()) {
            throw new IllegalArgumentException(
                    "inline_data has " + inlineData.length + " bytes, descriptor size is " + blob.size());
        }
        boolean ownsSidecar = blob.kind() == BlobKind.PACKED || blob.kind() == BlobKind.DEDICATED;
        if (ownsSidecar != (blobSet != null)) {
            throw new IllegalArgumentException(
                    "blob_set must be set iff kind is PACKED or DEDICATED, kind is " + blob.kind());
        }
    }

    /** {@code topic/partition/offset} of the input record. */
    public String source() {
        return sourceTopic + "/" + sourcePartition + "/" + sourceOffset;
    }

    /** Features a reader needs for this row's blob: {@code blob_object_pack} for object-backed Packed. */
    public List<String> requiredFeatures() {
        return blob.isObjectBacked() ? List.of(BlobFeatures.BLOB_OBJECT_PACK) : List.of();
    }
}
