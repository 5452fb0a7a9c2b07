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

    /**
     * How batch reads should treat the object at {@code location}: how far to merge reads, how
     * many to keep in flight. Reads nothing. This default is {@link ReadTuning#LOCAL}; a storage
     * in front of an object store answers {@link ReadTuning#OBJECT_STORE} for its objects, and a
     * storage that wraps another passes the question on.
     */
    default ReadTuning readTuning(URI location) {
        return ReadTuning.LOCAL;
    }
}
