package io.blobingest.objectlayer;

import java.net.URI;
import java.util.Objects;
import java.util.Set;

/**
 * One blob to read in a batch: its descriptor, the context to resolve it in, and for an Inline
 * descriptor the bytes that travelled beside it ({@code inline_data}), which are returned as they
 * are.
 */
public record BlobRequest(BlobDescriptor descriptor, ResolveContext context, byte[] inlineData) {

    public BlobRequest {
        Objects.requireNonNull(descriptor, "descriptor");
        Objects.requireNonNull(context, "context");
        boolean inline = descriptor.kind() == BlobKind.INLINE;
        if (inline != (inlineData != null)) {
            throw new IllegalArgumentException(
                    "inline_data must be given iff the descriptor is INLINE, descriptor is " + descriptor.kind());
        }
        if (inline && inlineData.length != descriptor.size()) {
            throw new IllegalArgumentException(
                    "inline_data has " + inlineData.length + " bytes, descriptor size is " + descriptor.size());
        }
    }

    /** A request for a descriptor that is not Inline. */
    public static BlobRequest of(BlobDescriptor descriptor, ResolveContext context) {
        return new BlobRequest(descriptor, context, null);
    }

    /**
     * The request for one manifest or descriptor-topic row.
     *
     * @param base where the row's blob set lives
     * @param requiredFeatures what the row's blob set requires (the manifest's {@code
     *     required_features}, or the record's {@code blob.features} header)
     */
    public static BlobRequest forRow(DescriptorRow row, URI base, Set<String> requiredFeatures) {
        return new BlobRequest(row.blob(), new ResolveContext(base, row.blobSet(), requiredFeatures), row.inlineData());
    }
}
