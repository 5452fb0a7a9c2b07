package io.blobingest.objectlayer;

import io.blobingest.objectlayer.pack.RawPackFormat;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/** Names of reader features a blob set or pack may require. */
public final class BlobFeatures {

    /** Packed positions are entry references into an indexed pack, not byte offsets. */
    public static final String BLOB_OBJECT_PACK = RawPackFormat.FEATURE_BLOB_OBJECT_PACK;

    /**
     * A manifest's rows may name sidecars of other blob sets (exact sharing): its trailing {@code
     * blob_set} column says which. A reader without it would look for those sidecars in the
     * manifest's own set and read wrong bytes or none.
     */
    public static final String BLOB_SHARED_OBJECT = "blob_shared_object";

    /** Every feature this build implements. */
    public static final Set<String> ALL = Set.of(BLOB_OBJECT_PACK, BLOB_SHARED_OBJECT);

    private BlobFeatures() {}

    /**
     * Parses a comma-separated feature list, as found in a manifest's {@code required_features}
     * metadata or the descriptor topic's {@code blob.features} header. Blanks around names and
     * empty items are ignored; null or empty means no feature.
     */
    public static Set<String> parseList(String commaSeparated) {
        if (commaSeparated == null) {
            return Set.of();
        }
        return Arrays.stream(commaSeparated.split(","))
                .map(String::strip)
                .filter(name -> !name.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }
}
