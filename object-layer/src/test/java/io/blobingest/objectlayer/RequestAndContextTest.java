package io.blobingest.objectlayer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import java.net.URI;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link ResolveContext}, {@link BlobRequest} and the builder's limits. */
class RequestAndContextTest {

    private static final URI BASE = URI.create("s3://bucket/blobs");

    @Test
    void contextRejectsAnInvalidBlobSetName() {
        assertThatThrownBy(() -> ResolveContext.forBlobSet(BASE, "Cam_7", Set.of()))
                .hasMessageContaining("[0-9a-z-]{1,64}");
    }

    @Test
    void contextRejectsABaseThatCannotHoldBlobSets() {
        assertThatThrownBy(() -> ResolveContext.forBlobSet(URI.create("blobs"), "cam", Set.of()))
                .hasMessageContaining("absolute hierarchical URI");
    }

    @Test
    void contextOutsideBlobSetsRequiresNothing() {
        assertThat(ResolveContext.noBlobSet()).isEqualTo(new ResolveContext(null, null, Set.of()));
    }

    @Test
    void requestForAManifestRowCarriesItsBlobSetAndInlineData() {
        DescriptorRow packed = new DescriptorRow(
                null,
                "in",
                0,
                5,
                null,
                BlobDescriptor.packed(RawPackFormat.entryReference(3), 9, 2),
                "cam-7",
                null,
                1L,
                List.of());
        DescriptorRow inline = new DescriptorRow(
                null, "in", 0, 6, null, BlobDescriptor.inline(2), null, new byte[] {1, 2}, 2L, List.of());
        Set<String> features = Set.of(BlobFeatures.BLOB_OBJECT_PACK);

        BlobRequest packedRequest = BlobRequest.forRow(packed, BASE, features);
        BlobRequest inlineRequest = BlobRequest.forRow(inline, BASE, features);

        assertThat(packedRequest.context()).isEqualTo(ResolveContext.forBlobSet(BASE, "cam-7", features));
        assertThat(packedRequest.inlineData()).isNull();
        assertThat(inlineRequest.context().blobSet()).isNull();
        assertThat(inlineRequest.inlineData()).isSameAs(inline.inlineData());
    }

    @Test
    void requestNeedsInlineDataExactlyForInlineDescriptors() {
        assertThatThrownBy(() -> BlobRequest.of(BlobDescriptor.inline(2), ResolveContext.noBlobSet()))
                .hasMessageContaining("inline_data must be given iff the descriptor is INLINE");
        assertThatThrownBy(
                        () -> new BlobRequest(BlobDescriptor.dedicated(2, 1), ResolveContext.noBlobSet(), new byte[2]))
                .hasMessageContaining("inline_data must be given iff the descriptor is INLINE");
        assertThatThrownBy(() -> new BlobRequest(BlobDescriptor.inline(3), ResolveContext.noBlobSet(), new byte[2]))
                .hasMessage("inline_data has 2 bytes, descriptor size is 3");
    }

    @Test
    void builderRefusesLimitsThatCannotWork() {
        LocalBlobStorage storage = new LocalBlobStorage();
        assertThatThrownBy(() -> ObjectLayer.builder(storage).holeLimit(-1).build())
                .hasMessageContaining("hole limit must be >= 0");
        assertThatThrownBy(() -> ObjectLayer.builder(storage)
                        .holeLimit(4096)
                        .maxMergedRange(4096)
                        .build())
                .hasMessageContaining("max merged range must exceed the hole limit");
        assertThatThrownBy(() -> ObjectLayer.builder(storage)
                        .maxMergedRange(Integer.MAX_VALUE)
                        .build())
                .hasMessageContaining("fit in an array");
        assertThatThrownBy(() -> ObjectLayer.builder(storage).concurrency(0).build())
                .hasMessageContaining("concurrency must be >= 1");
        assertThatThrownBy(
                        () -> ObjectLayer.builder(storage).footerCacheSize(-1).build())
                .hasMessageContaining("footer cache size must be >= 0");
    }

    @Test
    void aLayerReportsTheFeaturesItWasBuiltWith() {
        try (ObjectLayer all = ObjectLayer.builder(new LocalBlobStorage()).build();
                ObjectLayer none = ObjectLayer.builder(new LocalBlobStorage())
                        .supportedFeatures(Set.of())
                        .build()) {
            assertThat(all.supportedFeatures()).isEqualTo(BlobFeatures.ALL);
            assertThat(none.supportedFeatures()).isEmpty();
        }
    }
}
