package io.blobingest.objectlayer;

import java.net.URI;
import java.util.Objects;
import java.util.Set;

/**
 * What a descriptor alone does not say and resolving needs: where blob sets live, which blob set
 * the row belongs to, and the features that blob set requires of a reader (from a manifest's
 * {@code required_features} metadata or the descriptor topic's {@code blob.features} header, see
 * {@link BlobFeatures#parseList}).
 *
 * @param base where blob sets live ({@code file:///data}, {@code s3://bucket/prefix}); null only
 *     when no descriptor resolved with this context names a sidecar
 * @param blobSet the blob set whose sidecars the row's {@code blob_id} names; null for rows outside
 *     any blob set (Inline and External rows from the descriptor topic)
 * @param requiredFeatures what the blob set requires; a reader lacking any of them refuses every row
 *     resolved with this context
 */
public record ResolveContext(URI base, String blobSet, Set<String> requiredFeatures) {

    private static final ResolveContext NO_BLOB_SET = new ResolveContext(null, null, Set.of());

    public ResolveContext {
        if (base != null) {
            BlobSets.requireValidBase(base);
        }
        if (blobSet != null) {
            BlobSets.requireValidName(blobSet);
        }
        requiredFeatures = Set.copyOf(Objects.requireNonNull(requiredFeatures, "requiredFeatures"));
    }

    /** A row of blob set {@code blobSet} under {@code base}. */
    public static ResolveContext forBlobSet(URI base, String blobSet, Set<String> requiredFeatures) {
        return new ResolveContext(
                Objects.requireNonNull(base, "base"), Objects.requireNonNull(blobSet, "blobSet"), requiredFeatures);
    }

    /** A row that names no sidecar and requires no feature: an Inline or External descriptor on its own. */
    public static ResolveContext noBlobSet() {
        return NO_BLOB_SET;
    }
}
