package io.blobingest.objectlayer.storage;

import java.io.IOException;
import java.net.URI;

/**
 * Where sidecars and external objects are read from. Deliberately small so that another file
 * system (Flink's {@code FileSystem} for {@code s3://}) can stand behind it.
 */
public interface BlobStorage {

    /**
     * Opens an object for positional reads.
     *
     * @throws java.io.FileNotFoundException if it does not exist
     */
    ReadableObject open(URI location) throws IOException;
}
