package io.blobingest.sink.internal.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobSets;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;

/** Names themselves are tested in object-layer's {@code BlobSetsTest}; here, their Flink paths. */
class BlobSetLayoutTest {

    @Test
    void pathsFollowTheStorageLayout() {
        Path base = new Path("s3://bucket/blobs");
        assertThat(BlobSetLayout.sidecarPath(base, "set-1", 2).toString())
                .isEqualTo("s3://bucket/blobs/set-1/01000000000000000000000000000000.blob");
        assertThat(BlobSetLayout.manifestPath(base, "set-1").toString())
                .isEqualTo("s3://bucket/blobs/_descriptors/set-1.arrow");
        assertThatThrownBy(() -> BlobSetLayout.manifestPath(base, "_descriptors"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BlobSetLayout.sidecarPath(base, "set-1", 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void blobSetNamesOfOneRunAreDistinctAndValid() {
        BlobSetNames names = BlobSetNames.forNewRun(7);
        String first = names.next();
        String second = names.next();
        assertThat(first).matches("[0-9a-f]{32}-7-0");
        assertThat(second).isEqualTo(first.substring(0, first.length() - 1) + "1");
        assertThat(BlobSetNames.forNewRun(7).next()).isNotEqualTo(first);
        String longest = new BlobSetNames("f".repeat(32), Integer.MAX_VALUE).next();
        assertThat(BlobSets.isValidName(longest)).isTrue();
    }
}
