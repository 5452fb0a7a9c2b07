package io.blobingest.placement;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import java.util.List;
import java.util.Objects;

/**
 * A valid input record with its placement decided: what the sink writes.
 *
 * @param record the input as it arrived
 * @param placement where its bytes go
 * @param bytes the logical bytes for INLINE, PACKED and DEDICATED; null for EXTERNAL
 * @param attributes the headers to pass through (every header but the {@code blob.*} ones)
 * @param external the External descriptor, for EXTERNAL only; null otherwise
 */
public record PlacedBlob(
        BlobRecord record,
        Placement placement,
        byte[] bytes,
        List<Attribute> attributes,
        BlobDescriptor external) implements ClassifiedRecord {

    public PlacedBlob {
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(placement, "placement");
        attributes = List.copyOf(attributes);
        if ((placement == Placement.EXTERNAL) != (external != null)) {
            throw new IllegalArgumentException("an External descriptor is given iff placement is EXTERNAL");
        }
        if (external != null && external.kind() != BlobKind.EXTERNAL) {
            throw new IllegalArgumentException("external descriptor has kind " + external.kind());
        }
        if ((placement == Placement.EXTERNAL) == (bytes != null)) {
            throw new IllegalArgumentException("bytes are given iff placement is not EXTERNAL");
        }
    }
}
