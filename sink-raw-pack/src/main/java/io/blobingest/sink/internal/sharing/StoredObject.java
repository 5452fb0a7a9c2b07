package io.blobingest.sink.internal.sharing;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobSets;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * A blob the writer stored, as exact sharing finds it again: its content identity and the
 * descriptor that names its bytes.
 *
 * @param blobSet the blob set whose sidecar holds the bytes
 * @param descriptor a Packed or Dedicated descriptor of those bytes
 * @param crc32c crc32c of the bytes, unsigned
 */
@Internal
public record StoredObject(ContentId id, String blobSet, BlobDescriptor descriptor, long crc32c) {

    public StoredObject {
        Objects.requireNonNull(id, "id");
        BlobSets.requireValidName(blobSet);
        if (descriptor.kind() != BlobKind.PACKED && descriptor.kind() != BlobKind.DEDICATED) {
            throw new IllegalArgumentException("only Packed and Dedicated blobs are shared, found " + descriptor);
        }
        if (descriptor.size() != id.size()) {
            throw new IllegalArgumentException(
                    "descriptor size " + descriptor.size() + " differs from the content's " + id.size());
        }
    }
}
