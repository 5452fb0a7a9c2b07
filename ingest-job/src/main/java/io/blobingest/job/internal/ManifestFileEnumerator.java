package io.blobingest.job.internal;

import io.blobingest.objectlayer.BlobSets;
import java.io.IOException;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.enumerate.NonSplittingRecursiveEnumerator;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;

/**
 * Lists the descriptor manifests under a path for the backfill's {@code FileSource}: every
 * {@code *.arrow} file, one split each, recursively. Hidden files (a writer's in-progress files
 * start with '.') are skipped; unlike Flink's default filter, names starting with '_' are not, so
 * that {@code <base>/_descriptors} itself can be given.
 */
@Internal
public final class ManifestFileEnumerator extends NonSplittingRecursiveEnumerator {

    public ManifestFileEnumerator() {
        super(path -> !path.getName().startsWith("."));
    }

    @Override
    protected void convertToSourceSplits(FileStatus file, FileSystem fs, List<FileSourceSplit> target)
            throws IOException {
        if (file.getPath().getName().endsWith(BlobSets.MANIFEST_SUFFIX)) {
            super.convertToSourceSplits(file, fs, target);
        }
    }
}
