package io.blobingest.placement;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import java.util.List;
import java.util.Objects;

/**
 * A valid input record with its placement decided: what the sink writes.
 *
 * <p>Exactly one of {@code bytes}, {@code external}, {@code source} is given: {@code external} for
 * EXTERNAL, {@code source} only for a DEDICATED blob fetched from an external object (the sink
 * streams it from there), {@code bytes} otherwise.
 *
 * @param record the input as it arrived
 * @param placement where its bytes go
 * @param bytes the logical bytes, when they travel with the record
 * @param attributes the headers to pass through (every header but the {@code blob.*} ones)
 * @param external the External descriptor, for EXTERNAL only
 * @param source where the sink reads a DEDICATED blob's bytes from, when they do not travel with
 *     the record
 */
public record PlacedBlob(
        BlobRecord record,
        Placement placement,
        byte[] bytes,
        List<Attribute> attributes,
        BlobDescriptor external,
        ExternalBytes source)
        implements ClassifiedRecord {

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
        if (source != null && placement != Placement.DEDICATED) {
            throw new IllegalArgumentException("only a DEDICATED blob is copied from a source, found " + placement);
        }
        if ((placement == Placement.EXTERNAL || source != null) == (bytes != null)) {
            throw new IllegalArgumentException(
                    "bytes are given iff placement is not EXTERNAL and there is no source, found " + placement
                            + (source != null ? " with a source" : ""));
        }
    }

    /** A blob whose bytes travel with it, or an External reference; never one copied from a source. */
    public PlacedBlob(
            BlobRecord record, Placement placement, byte[] bytes, List<Attribute> attributes, BlobDescriptor external) {
        this(record, placement, bytes, attributes, external, null);
    }

    /** A DEDICATED blob that the sink copies from {@code source}. */
    public static PlacedBlob copiedFrom(ExternalBytes source, BlobRecord record, List<Attribute> attributes) {
        return new PlacedBlob(
                record, Placement.DEDICATED, null, attributes, null, Objects.requireNonNull(source, "source"));
    }

    /** How many logical bytes the sink places: the bytes' or the source's length; 0 for an External reference. */
    public long placedLength() {
        if (bytes != null) {
            return bytes.length;
        }
        return source != null ? source.length() : 0;
    }
}
