package io.blobingest.objectlayer;

import io.blobingest.objectlayer.pack.RawPackFormat;

/** Names of reader features a blob set or pack may require. */
public final class BlobFeatures {

    /** Packed positions are entry references into an indexed pack, not byte offsets. */
    public static final String BLOB_OBJECT_PACK = RawPackFormat.FEATURE_BLOB_OBJECT_PACK;

    private BlobFeatures() {}
}
