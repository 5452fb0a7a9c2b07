package io.blobingest.sink.internal;

import io.blobingest.objectlayer.BlobSets;
import java.util.Objects;
import org.apache.flink.core.fs.Path;

/**
 * A committed blob set whose rows the emitter sent to the descriptor sink: enough to read its
 * manifest again and send the rows once more.
 *
 * @param basePath the storage root the set was committed under
 * @param rowCount rows in its manifest
 */
public record EmittedBlobSet(String basePath, String blobSet, long rowCount) {

    public EmittedBlobSet {
        Objects.requireNonNull(basePath, "basePath");
        BlobSets.requireValidName(blobSet);
    }

    static EmittedBlobSet of(BlobSetCommittable committed) {
        return new EmittedBlobSet(committed.basePath(), committed.blobSet(), committed.rowCount());
    }

    public Path manifestPath() {
        return BlobSetLayout.manifestPath(new Path(basePath), blobSet);
    }
}
