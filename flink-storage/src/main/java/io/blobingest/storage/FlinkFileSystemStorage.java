package io.blobingest.storage;

import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadTuning;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.storage.internal.FlinkReadableObject;
import io.blobingest.storage.internal.IoErrors;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * {@link BlobStorage} over Flink's {@link FileSystem}: any URI that {@link FileSystem#get} serves
 * ({@code file:}, {@code s3:} once {@link FlinkFileSystems#initialize} loaded the S3 plugin).
 *
 * <p>Opening reads the object's status (one HEAD on S3); the data stream is opened on the first
 * read. Each {@link ReadableObject#readFully} is one positioned read: on S3 with
 * {@code fs.s3a.experimental.input.fadvise=random} one ranged GET, see docs/storage.md. Reads of
 * one object from several threads run at once, each on a stream of its own.
 *
 * <p>Batch reads are tuned by the file system: {@link ReadTuning#OBJECT_STORE} for a distributed
 * one ({@code s3://}: many GETs in flight, parts of one object included, wider holes), {@link
 * ReadTuning#LOCAL} for the rest.
 */
@PublicEvolving
public final class FlinkFileSystemStorage implements BlobStorage {

    /**
     * {@link ReadTuning#OBJECT_STORE} where {@link FileSystem#isDistributedFS()}, else {@link
     * ReadTuning#LOCAL}; a location no file system serves gets the local tuning, and its open
     * fails with the reason.
     */
    @Override
    public ReadTuning readTuning(URI location) {
        try {
            return FileSystem.get(location).isDistributedFS() ? ReadTuning.OBJECT_STORE : ReadTuning.LOCAL;
        } catch (IOException e) {
            return ReadTuning.LOCAL;
        }
    }

    @Override
    public ReadableObject open(URI location) throws IOException {
        Path path = new Path(location);
        FileSystem fileSystem;
        try {
            fileSystem = FileSystem.get(location);
        } catch (IOException e) {
            throw IoErrors.withContext("no Flink file system can open " + location, e);
        }
        FileStatus status;
        try {
            status = fileSystem.getFileStatus(path);
        } catch (FileNotFoundException e) {
            throw IoErrors.withContext(location + " does not exist", e);
        } catch (IOException e) {
            throw IoErrors.withContext("cannot read the status of " + location, e);
        }
        if (status.isDir()) {
            throw new FileNotFoundException(location + " is a directory, not an object");
        }
        return new FlinkReadableObject(location, fileSystem, path, status.getLen());
    }
}
