package io.blobingest.objectlayer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BlobSetsTest {

    private static final String ZEROS_31 = "0".repeat(31);

    @ParameterizedTest
    @ValueSource(strings = {"a", "0", "-", "job-7-subtask-3-ckpt-42", "abcdefghijklmnopqrstuvwxyz-0123456789"})
    void acceptsNamesOfDigitsLowercaseAndHyphens(String name) {
        assertThat(BlobSets.isValidName(name)).isTrue();
        assertThat(BlobSets.requireValidName(name)).isEqualTo(name);
    }

    @Test
    void acceptsSixtyFourCharactersAndNoMore() {
        assertThat(BlobSets.isValidName("a".repeat(64))).isTrue();
        assertThat(BlobSets.isValidName("a".repeat(65))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Cam", "cam_7", "cam.7", "cam/7", "_descriptors", "cam 7", "caméra"})
    void rejectsOtherNames(String name) {
        assertThat(BlobSets.isValidName(name)).isFalse();
        assertThatThrownBy(() -> BlobSets.requireValidName(name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[0-9a-z-]{1,64}");
    }

    @Test
    void rejectsNullName() {
        assertThat(BlobSets.isValidName(null)).isFalse();
        assertThatThrownBy(() -> BlobSets.requireValidName(null)).hasMessageContaining("found null");
    }

    @Test
    void sidecarNameIsTheIdsBitsReversed() {
        assertThat(BlobSets.sidecarFileName(1)).isEqualTo("1" + ZEROS_31 + ".blob");
        assertThat(BlobSets.sidecarFileName(2)).isEqualTo("01" + "0".repeat(30) + ".blob");
        assertThat(BlobSets.sidecarFileName(3)).isEqualTo("11" + "0".repeat(30) + ".blob");
        assertThat(BlobSets.sidecarFileName(6)).isEqualTo("011" + "0".repeat(29) + ".blob");
        assertThat(BlobSets.sidecarFileName(0x8000_0000L)).isEqualTo(ZEROS_31 + "1.blob");
        assertThat(BlobSets.sidecarFileName(0xFFFF_FFFFL)).isEqualTo("1".repeat(32) + ".blob");
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, 0x1_0000_0000L, Long.MAX_VALUE})
    void sidecarNameRejectsReservedAndNonU32Ids(long id) {
        assertThatThrownBy(() -> BlobSets.sidecarFileName(id))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sidecar id must be in [1, 4294967295]")
                .hasMessageContaining("found " + id);
    }

    @ParameterizedTest
    @CsvSource({
        "file:///data/blobs, file:///data/blobs/cam-7/",
        "file:///data/blobs/, file:///data/blobs/cam-7/",
        "file:/data/blobs, file:/data/blobs/cam-7/",
        "file:/data/blobs//, file:/data/blobs/cam-7/",
        "s3://bucket/prefix, s3://bucket/prefix/cam-7/",
        "s3://bucket/prefix/, s3://bucket/prefix/cam-7/",
        "s3://bucket, s3://bucket/cam-7/",
        "s3://bucket/, s3://bucket/cam-7/"
    })
    void sidecarUriIsBaseThenBlobSetThenName(String base, String expectedDirectory) {
        assertThat(BlobSets.sidecarUri(URI.create(base), "cam-7", 2))
                .isEqualTo(URI.create(expectedDirectory + "01" + "0".repeat(30) + ".blob"));
    }

    @ParameterizedTest
    @CsvSource({
        "file:///data/blobs, file:///data/blobs/_descriptors/cam-7.arrow",
        "file:///data/blobs/, file:///data/blobs/_descriptors/cam-7.arrow",
        "s3://bucket/prefix/, s3://bucket/prefix/_descriptors/cam-7.arrow",
        "s3://bucket, s3://bucket/_descriptors/cam-7.arrow"
    })
    void manifestUriIsUnderDescriptors(String base, String expected) {
        assertThat(BlobSets.manifestUri(URI.create(base), "cam-7")).isEqualTo(URI.create(expected));
    }

    @Test
    void sidecarUriOfALocalBaseIsALocalPath() {
        URI uri = BlobSets.sidecarUri(URI.create("file:///tmp/blobs/"), "s", 1);
        assertThat(java.nio.file.Path.of(uri)).hasToString("/tmp/blobs/s/1" + ZEROS_31 + ".blob");
    }

    @Test
    void urisRejectInvalidBlobSetNames() {
        URI base = URI.create("file:///data");
        assertThatThrownBy(() -> BlobSets.sidecarUri(base, "../etc", 1)).hasMessageContaining("[0-9a-z-]{1,64}");
        assertThatThrownBy(() -> BlobSets.manifestUri(base, "Cam")).hasMessageContaining("[0-9a-z-]{1,64}");
    }

    @Test
    void sidecarUriRejectsReservedId() {
        assertThatThrownBy(() -> BlobSets.sidecarUri(URI.create("file:///data"), "s", 0))
                .hasMessageContaining("0 is reserved");
    }

    @ParameterizedTest
    @ValueSource(strings = {"data/blobs", "/data/blobs", "file:data", "file:///data?x=1", "file:///data#frag"})
    void rejectsBasesThatCannotHoldBlobSets(String base) {
        assertThatThrownBy(() -> BlobSets.sidecarUri(URI.create(base), "s", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("absolute hierarchical URI");
    }

    @Test
    void rejectsBaseWithUserinfoWithoutEchoingIt() {
        assertThatThrownBy(() -> BlobSets.manifestUri(URI.create("s3://key:secret@bucket/p"), "s"))
                .hasMessageContaining("userinfo")
                .hasMessageNotContaining("secret");
    }
}
