package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobFeatures;
import io.blobingest.objectlayer.BlobObjectRef;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.ResolveContext;
import io.blobingest.objectlayer.UnsupportedFeatureException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashSet;
import java.util.Set;

/**
 * Resolves descriptors to object references without reading anything, and applies the feature
 * gate: a reader refuses a blob set that requires a feature it lacks, and an object-backed Packed
 * descriptor when it lacks {@code blob_object_pack}.
 */
final class DescriptorResolver {

    private final Set<String> supportedFeatures;

    DescriptorResolver(Set<String> supportedFeatures) {
        this.supportedFeatures = Set.copyOf(supportedFeatures);
    }

    /** Refuses {@code context} if its blob set requires a feature this reader lacks. */
    void checkFeatures(ResolveContext context) throws UnsupportedFeatureException {
        Set<String> missing = new HashSet<>(context.requiredFeatures());
        missing.removeAll(supportedFeatures);
        if (!missing.isEmpty()) {
            String subject = context.blobSet() == null ? "the row's context" : "blob set '" + context.blobSet() + "'";
            throw new UnsupportedFeatureException(subject, missing, supportedFeatures);
        }
    }

    BlobObjectRef resolve(BlobDescriptor descriptor, ResolveContext context) throws UnsupportedFeatureException {
        checkFeatures(context);
        return switch (descriptor.kind()) {
            case INLINE ->
                throw new IllegalArgumentException(
                        "an INLINE descriptor names no object: its bytes travel in inline_data (read it with a"
                                + " BlobRequest)");
            case PACKED -> resolvePacked(descriptor, context);
            case DEDICATED -> new BlobObjectRef.DedicatedFile(sidecar(descriptor, context), descriptor.size());
            case EXTERNAL -> resolveExternal(descriptor);
        };
    }

    private BlobObjectRef resolvePacked(BlobDescriptor descriptor, ResolveContext context)
            throws UnsupportedFeatureException {
        URI location = sidecar(descriptor, context);
        if (descriptor.isObjectBacked()) {
            // Read even when the set does not declare the feature: bit 63 already says what the
            // position is, and the pack's own footer is checked before any byte is trusted.
            if (!supportedFeatures.contains(BlobFeatures.BLOB_OBJECT_PACK)) {
                throw new UnsupportedFeatureException(
                        String.format(
                                "Packed descriptor of sidecar %d in blob set '%s' (position 0x%016x is an entry"
                                        + " reference)",
                                descriptor.blobId(), context.blobSet(), descriptor.position()),
                        Set.of(BlobFeatures.BLOB_OBJECT_PACK),
                        supportedFeatures);
            }
            return new BlobObjectRef.PackEntry(location, descriptor.position(), descriptor.size());
        }
        if (context.requiredFeatures().contains(BlobFeatures.BLOB_OBJECT_PACK)) {
            throw new IllegalArgumentException(
                    "blob set '" + context.blobSet() + "' requires " + BlobFeatures.BLOB_OBJECT_PACK
                            + ", so its Packed positions are entry references with bit 63 set; sidecar "
                            + descriptor.blobId() + " has position " + descriptor.position()
                            + ", a legacy byte offset");
        }
        return new BlobObjectRef.LegacyPackedRange(location, descriptor.position(), descriptor.size());
    }

    private static URI sidecar(BlobDescriptor descriptor, ResolveContext context) {
        if (context.base() == null || context.blobSet() == null) {
            throw new IllegalArgumentException("a " + descriptor.kind() + " descriptor names sidecar "
                    + descriptor.blobId() + " of a blob set, but the context has "
                    + (context.blobSet() == null ? "no blob set" : "no base URI"));
        }
        return BlobSets.sidecarUri(context.base(), context.blobSet(), descriptor.blobId());
    }

    private static BlobObjectRef resolveExternal(BlobDescriptor descriptor) {
        URI uri;
        try {
            uri = new URI(descriptor.blobUri());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("External blob_uri is not a URI: " + e.getReason());
        }
        // Any scheme: the object is read through the reader's storage, which refuses the schemes it
        // cannot open (the local one all but file:, Flink's those with no file system). Messages
        // name the scheme only: the URI may carry userinfo.
        if (uri.isOpaque() || uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException(
                    "External " + uri.getScheme() + ": blob_uri must be hierarchical and carry no userinfo");
        }
        // A query is typically a presigned URL's signature, which no storage of this reader uses
        // (no Flink file system reads http(s)); refused here so that no later error quotes it.
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("External " + uri.getScheme()
                    + ": blob_uri with a query or fragment cannot be read by this reader");
        }
        return new BlobObjectRef.ExternalObject(uri, descriptor.position(), descriptor.size());
    }
}
