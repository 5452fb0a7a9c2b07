package io.blobingest.job;

import io.blobingest.objectlayer.BlobSets;
import io.blobingest.storage.DirectoryListing;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The descriptor manifests that existed under a base before a run started, so that the manifests
 * the run committed can be told apart afterwards: a manifest is written once, under a blob set name
 * no other run uses, and never rewritten. Reads go through Flink's {@link FileSystem}, so any base
 * it can open ({@code file:}, {@code s3:}) works.
 */
@PublicEvolving
public final class RunBaseline {

    private final URI base;
    private final Set<String> manifestsBefore;

    private RunBaseline(URI base, Set<String> manifestsBefore) {
        this.base = base;
        this.manifestsBefore = manifestsBefore;
    }

    /**
     * Lists the manifests under {@code base} now; call it before the job starts.
     *
     * @param base the storage root; a path without a scheme is on the default file system
     */
    public static RunBaseline take(Path base) throws IOException {
        URI qualified = BlobSets.requireValidBase(
                base.makeQualified(base.getFileSystem()).toUri());
        return new RunBaseline(qualified, manifestNames(qualified));
    }

    public URI base() {
        return base;
    }

    /** The manifests under the base that were not there when this baseline was taken, by name. */
    public List<Path> newManifests() throws IOException {
        List<Path> manifests = new ArrayList<>();
        Path directory = manifestDirectory(base);
        for (String name : manifestNames(base)) {
            if (!manifestsBefore.contains(name)) {
                manifests.add(new Path(directory, name));
            }
        }
        return manifests;
    }

    private static Set<String> manifestNames(URI base) throws IOException {
        Path directory = manifestDirectory(base);
        Set<String> names = new TreeSet<>();
        for (FileStatus status : DirectoryListing.list(directory)) {
            String name = status.getPath().getName();
            // In-progress files of Flink's recoverable writers are hidden (".name.inprogress.uuid").
            if (!status.isDir() && isManifestName(name)) {
                names.add(name);
            }
        }
        return names;
    }

    private static boolean isManifestName(String name) {
        return name.endsWith(BlobSets.MANIFEST_SUFFIX)
                && BlobSets.isValidName(name.substring(0, name.length() - BlobSets.MANIFEST_SUFFIX.length()));
    }

    private static Path manifestDirectory(URI base) {
        return new Path(new Path(base), BlobSets.DESCRIPTORS_DIRECTORY);
    }
}
