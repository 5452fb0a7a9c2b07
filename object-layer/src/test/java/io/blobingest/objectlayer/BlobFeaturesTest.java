package io.blobingest.objectlayer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BlobFeaturesTest {

    @Test
    void parsesCommaSeparatedNamesIgnoringBlanksAndEmptyItems() {
        assertThat(BlobFeatures.parseList(" blob_object_pack , future_x,,"))
                .containsExactlyInAnyOrder("blob_object_pack", "future_x");
    }

    @Test
    void nullOrEmptyMeansNoFeature() {
        assertThat(BlobFeatures.parseList(null)).isEmpty();
        assertThat(BlobFeatures.parseList("")).isEmpty();
        assertThat(BlobFeatures.parseList(" , ")).isEmpty();
    }

    @Test
    void thisBuildImplementsObjectPacksAndSharedObjects() {
        assertThat(BlobFeatures.ALL)
                .containsExactlyInAnyOrder(BlobFeatures.BLOB_OBJECT_PACK, BlobFeatures.BLOB_SHARED_OBJECT);
        assertThat(BlobFeatures.BLOB_OBJECT_PACK).isEqualTo("blob_object_pack");
        assertThat(BlobFeatures.BLOB_SHARED_OBJECT).isEqualTo("blob_shared_object");
    }
}
