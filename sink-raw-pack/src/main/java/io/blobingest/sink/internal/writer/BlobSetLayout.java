package io.blobingest.sink.internal.writer;

import io.blobingest.objectlayer.BlobSets;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.Path;

/**
 * spec.md section 3's layout as Flink {@link Path}s, for writing through Flink's file systems. Names
 * and their validation are {@link BlobSets}'; this class only places them under a base path:
 *
 * <pre>
 * &lt;base&gt;/&lt;blob_set&gt;/&lt;sidecar name&gt;.blob        Raw Packs and Dedicated sidecars
 * &lt;base&gt;/_descriptors/&lt;blob_set&gt;.arrow         one descriptor manifest per committed blob set
 * </pre>
 */
@Internal
public final class BlobSetLayout {

    private BlobSetLayout() {}

    public static Path blobSetDirectory(Path base, String blobSet) {
        return new Path(base, BlobSets.requireValidName(blobSet));
    }

    public static Path sidecarPath(Path base, String blobSet, long sidecarId) {
        return new Path(blobSetDirectory(base, blobSet), BlobSets.sidecarFileName(sidecarId));
    }

    public static Path manifestPath(Path base, String blobSet) {
        return new Path(
                new Path(base, BlobSets.DESCRIPTORS_DIRECTORY),
                BlobSets.requireValidName(blobSet) + BlobSets.MANIFEST_SUFFIX);
    }
}
