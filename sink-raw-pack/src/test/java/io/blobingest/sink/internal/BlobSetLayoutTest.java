package io.blobingest.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;

class BlobSetLayoutTest {

    @Test
    void sidecarNameIsTheIdsThirtyTwoBitsReversed() {
        assertThat(BlobSetLayout.sidecarFileName(1)).isEqualTo("10000000000000000000000000000000.blob");
        assertThat(BlobSetLayout.sidecarFileName(2)).isEqualTo("01000000000000000000000000000000.blob");
        assertThat(BlobSetLayout.sidecarFileName(3)).isEqualTo("11000000000000000000000000000000.blob");
        assertThat(BlobSetLayout.sidecarFileName(0x8000_0000L)).isEqualTo("00000000000000000000000000000001.blob");
        assertThat(BlobSetLayout.sidecarFileName(BlobSetLayout.MAX_SIDECAR_ID))
                .isEqualTo("11111111111111111111111111111111.blob");
    }

    @Test
    void sidecarIdIsRecoveredFromItsName() {
        for (long id : new long[] {1, 2, 5, 1000, 0x8000_0000L, BlobSetLayout.MAX_SIDECAR_ID}) {
            assertThat(BlobSetLayout.sidecarId(BlobSetLayout.sidecarFileName(id))).isEqualTo(id);
        }
    }

    @Test
    void sidecarIdZeroAndBeyondU32AreRejected() {
        assertThatThrownBy(() -> BlobSetLayout.sidecarFileName(0)).hasMessageContaining("found 0");
        assertThatThrownBy(() -> BlobSetLayout.sidecarFileName(1L << 32)).hasMessageContaining("4294967296");
        assertThatThrownBy(() -> BlobSetLayout.sidecarId("1000.blob")).hasMessageContaining("1000.blob");
        assertThatThrownBy(() -> BlobSetLayout.sidecarId("1000000000000000000000000000000x.blob"))
                .hasMessageContaining("not a sidecar file name");
    }

    @Test
    void blobSetNamesFollowTheSpecAlphabetAndLength() {
        assertThat(BlobSetLayout.isValidBlobSetName("a")).isTrue();
        assertThat(BlobSetLayout.isValidBlobSetName("0123-abc-z")).isTrue();
        assertThat(BlobSetLayout.isValidBlobSetName("a".repeat(64))).isTrue();
        assertThat(BlobSetLayout.isValidBlobSetName("a".repeat(65))).isFalse();
        assertThat(BlobSetLayout.isValidBlobSetName("")).isFalse();
        assertThat(BlobSetLayout.isValidBlobSetName("Upper")).isFalse();
        assertThat(BlobSetLayout.isValidBlobSetName("a_b")).isFalse();
        assertThat(BlobSetLayout.isValidBlobSetName("../x")).isFalse();
        assertThat(BlobSetLayout.isValidBlobSetName(null)).isFalse();
    }

    @Test
    void pathsFollowTheStorageLayout() {
        Path base = new Path("s3://bucket/blobs");
        assertThat(BlobSetLayout.sidecarPath(base, "set-1", 2).toString())
                .isEqualTo("s3://bucket/blobs/set-1/01000000000000000000000000000000.blob");
        assertThat(BlobSetLayout.manifestPath(base, "set-1").toString())
                .isEqualTo("s3://bucket/blobs/_descriptors/set-1.arrow");
        assertThatThrownBy(() -> BlobSetLayout.manifestPath(base, "_descriptors"))
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
        assertThat(BlobSetLayout.isValidBlobSetName(longest)).isTrue();
    }
}
