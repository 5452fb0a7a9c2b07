package io.blobingest.cli.demo;

import io.blobingest.cli.OwnedDirectory;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The demo's output directory: the job's storage root, with the allow-listed directory of the
 * External records' files beside the blob sets ({@code _external}: a blob set name never has an
 * underscore). A marker file says the demo made it, so that a later demo may empty it; a directory
 * without the marker is never touched.
 */
public final class DemoDirectory {

    static final String MARKER = ".blob-ingest-demo";
    static final String EXTERNAL = "_external";
    static final String LANCE_DATASET = "_lance/demo.lance";

    private final Path base;

    private DemoDirectory(Path base) {
        this.base = base;
    }

    /**
     * Makes {@code base} an empty demo directory: creates it, or empties one an earlier demo made.
     *
     * @throws IllegalArgumentException if it is a file, or a non-empty directory without the marker
     */
    public static DemoDirectory prepare(Path base) throws IOException {
        return new DemoDirectory(OwnedDirectory.prepare(base, MARKER, "the demo"));
    }

    /** The storage root: blob sets and {@code _descriptors}. */
    public Path base() {
        return base;
    }

    /** Where the External records' files are; the demo allow-lists exactly this directory. */
    public Path externalDirectory() {
        return base.resolve(EXTERNAL);
    }

    /** Where {@code demo --lance} has the job write its Lance dataset. */
    public Path lanceDataset() {
        return base.resolve(LANCE_DATASET);
    }
}
