package io.blobingest.objectlayer;

import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;

/**
 * A blob set or descriptor requires a reader feature this reader was not built with, e.g. a
 * legacy-only reader meeting a blob set that requires {@code blob_object_pack}. Refusing is the
 * point: reading on would take entry references for byte offsets.
 */
public final class UnsupportedFeatureException extends IOException {

    private static final long serialVersionUID = 1L;

    private final Set<String> missingFeatures;

    /**
     * @param subject what requires the features, e.g. {@code blob set 'cam-7'}
     */
    public UnsupportedFeatureException(String subject, Set<String> missingFeatures, Set<String> supportedFeatures) {
        super(subject + " requires reader features " + new TreeSet<>(missingFeatures)
                + " that this reader does not support (it supports " + new TreeSet<>(supportedFeatures) + ")");
        this.missingFeatures = Set.copyOf(missingFeatures);
    }

    public Set<String> missingFeatures() {
        return missingFeatures;
    }
}
