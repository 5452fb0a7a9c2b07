package io.blobingest.objectlayer;

import io.blobingest.objectlayer.storage.LocalBlobStorage;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Object Layer's tests share: a temporary base directory that {@link BlobFixtures} writes
 * blob sets into, a storage that records every access to it, and a layer reading through that
 * storage, closed after each test.
 */
abstract class ObjectLayerTestBase {

    @TempDir
    Path root;

    final RecordingBlobStorage storage = new RecordingBlobStorage(new LocalBlobStorage());
    BlobFixtures fixtures;
    /** Knows every feature of this build. */
    ObjectLayer layer;

    @BeforeEach
    void openLayer() {
        fixtures = new BlobFixtures(root);
        layer = configure(ObjectLayer.builder(storage)).build();
    }

    @AfterEach
    void closeLayer() {
        layer.close();
    }

    /** The settings of {@link #layer}: the defaults, unless a test class needs others. */
    ObjectLayer.Builder configure(ObjectLayer.Builder builder) {
        return builder;
    }
}
