package io.blobingest.objectlayer;

import static io.blobingest.objectlayer.BlobFixtures.payloads;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.RecordingBlobStorage.Op;
import io.blobingest.objectlayer.pack.UnsupportedPackException;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** spec.md section 6.5: legacy raw Packed sidecars, and the {@code blob_object_pack} feature gate. */
class CompatibilityTest extends ObjectLayerTestBase {

    private static final String LEGACY_SET = "legacy";
    private static final String PACKED_SET = "packed";

    /** Built without {@code blob_object_pack}: a reader from before object-backed packs. */
    private ObjectLayer legacyOnly;

    @BeforeEach
    void openLegacyOnlyLayer() {
        legacyOnly = ObjectLayer.builder(storage).supportedFeatures(Set.of()).build();
    }

    @AfterEach
    void closeLegacyOnlyLayer() {
        legacyOnly.close();
    }

    @Test
    void legacyRawSidecarsAreReadAtTheirByteOffsetsByEveryReader() throws IOException {
        List<byte[]> payloads = payloads(5, 300);
        List<BlobDescriptor> descriptors = fixtures.writeLegacyPacked(LEGACY_SET, 1, payloads);
        List<BlobRequest> requests = descriptors.stream()
                .map(d -> BlobRequest.of(d, fixtures.legacySet(LEGACY_SET)))
                .toList();

        assertThat(layer.readAll(requests)).containsExactlyElementsOf(payloads);
        assertThat(legacyOnly.readAll(requests)).containsExactlyElementsOf(payloads);
        assertThat(descriptors.get(3).position()).isEqualTo(900);
    }

    @Test
    void aLegacyRawSidecarIsPlannedFromItsLengthWithoutLookingForAFooter() throws IOException {
        BlobDescriptor descriptor =
                fixtures.writeLegacyPacked(LEGACY_SET, 1, payloads(5, 300)).get(2);

        BlobReadPlan plan = layer.plan(layer.resolve(descriptor, fixtures.legacySet(LEGACY_SET)));

        assertThat(plan.ref())
                .isEqualTo(new BlobObjectRef.LegacyPackedRange(fixtures.sidecar(LEGACY_SET, 1), 600, 300));
        assertThat(plan.range()).isEqualTo(new PhysicalRange(fixtures.sidecar(LEGACY_SET, 1), 600, 300));
        assertThat(storage.count(Op.READ)).isZero();
    }

    @Test
    void aReaderWithoutObjectPacksRefusesABlobSetThatRequiresThem() throws IOException {
        BlobDescriptor entry =
                fixtures.writePack(PACKED_SET, 1, payloads(1, 10)).get(0);
        BlobDescriptor dedicated = fixtures.writeDedicated(PACKED_SET, 2, new byte[10]);

        for (BlobDescriptor descriptor : List.of(entry, dedicated)) {
            assertThatThrownBy(() -> legacyOnly.resolve(descriptor, fixtures.objectPackSet(PACKED_SET)))
                    .isInstanceOf(UnsupportedFeatureException.class)
                    .hasMessage("blob set 'packed' requires reader features [blob_object_pack] that this reader"
                            + " does not support (it supports [])");
        }
        assertThat(storage.log()).as("refused before touching storage").isEmpty();
    }

    @Test
    void aReaderWithoutObjectPacksRefusesEveryRowOfSuchASetInABatchEvenInlineOnes() {
        BlobRequest inline = new BlobRequest(BlobDescriptor.inline(2), fixtures.objectPackSet(PACKED_SET), new byte[2]);

        assertThatThrownBy(() -> legacyOnly.readAll(List.of(inline)))
                .isInstanceOf(UnsupportedFeatureException.class)
                .satisfies(e -> assertThat(((UnsupportedFeatureException) e).missingFeatures())
                        .containsExactly(BlobFeatures.BLOB_OBJECT_PACK));
    }

    @Test
    void aReaderWithoutObjectPacksRefusesAnObjectBackedDescriptorWhateverItsSetDeclares() throws IOException {
        BlobDescriptor entry =
                fixtures.writePack(PACKED_SET, 1, payloads(1, 10)).get(0);

        assertThatThrownBy(() -> legacyOnly.resolve(entry, fixtures.legacySet(PACKED_SET)))
                .isInstanceOf(UnsupportedFeatureException.class)
                .hasMessageStartingWith(
                        "Packed descriptor of sidecar 1 in blob set 'packed' (position 0x8000000000000000"
                                + " is an entry reference) requires reader features [blob_object_pack]");
    }

    @Test
    void aReaderWithoutObjectPacksRefusesAPackFooterThatRequiresThem() throws IOException {
        BlobDescriptor entry =
                fixtures.writePack(PACKED_SET, 1, payloads(1, 10)).get(0);
        BlobObjectRef ref =
                new BlobObjectRef.PackEntry(fixtures.sidecar(PACKED_SET, 1), entry.position(), entry.size());

        assertThatThrownBy(() -> legacyOnly.plan(ref))
                .isInstanceOf(UnsupportedPackException.class)
                .hasMessageStartingWith(fixtures.sidecarPath(PACKED_SET, 1) + ": unknown required feature at offset ")
                .hasMessageEndingWith(
                        "expected a feature this reader supports (it supports none), found \"blob_object_pack\"");
    }

    @Test
    void aLegacyStyleReadOfAnEntryReferenceLandsPastTheEndOfTheFileAndFails() throws IOException {
        BlobDescriptor entry =
                fixtures.writePack(PACKED_SET, 1, payloads(3, 10)).get(2);
        long packLength = Files.size(fixtures.sidecarPath(PACKED_SET, 1));
        // What a legacy reader does: take position as a byte offset. Bit 63 puts it at 2^63 + 2.
        BlobObjectRef legacyView =
                new BlobObjectRef.LegacyPackedRange(fixtures.sidecar(PACKED_SET, 1), entry.position(), entry.size());

        assertThatThrownBy(() -> layer.plan(legacyView))
                .isInstanceOf(DescriptorMismatchException.class)
                .hasMessage(fixtures.sidecarPath(PACKED_SET, 1)
                        + ": legacy raw Packed range lies beyond the end of the file"
                        + " at offset 9223372036854775810: expected offset + size <= " + packLength
                        + " (the file's length), found offset 9223372036854775810 + size 10");
        assertThat(storage.count(Op.READ)).as("no byte returned, none read").isZero();
    }

    @Test
    void aLegacyByteOffsetInASetThatRequiresObjectPacksIsRefused() throws IOException {
        BlobDescriptor legacy =
                fixtures.writeLegacyPacked(PACKED_SET, 1, payloads(2, 10)).get(1);

        assertThatThrownBy(() -> layer.resolve(legacy, fixtures.objectPackSet(PACKED_SET)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("blob set 'packed' requires blob_object_pack, so its Packed positions are entry references"
                        + " with bit 63 set; sidecar 1 has position 10, a legacy byte offset");
    }

    /**
     * Decision: an object-backed descriptor in a set that does not declare {@code blob_object_pack}
     * is read by a reader that supports it. Bit 63 already says what the position is, the pack's
     * footer declares its own required features and is checked, and the entry's crc32c is verified;
     * an under-declaring set only loses the early refusal by legacy readers, whose reads still fail
     * past the end of the file.
     */
    @Test
    void anObjectBackedDescriptorInASetThatDoesNotDeclareTheFeatureIsRead() throws IOException {
        List<byte[]> payloads = payloads(3, 10);
        BlobDescriptor entry = fixtures.writePack(PACKED_SET, 1, payloads).get(1);

        List<byte[]> blobs = layer.readAll(List.of(BlobRequest.of(entry, fixtures.legacySet(PACKED_SET))));

        assertThat(blobs).containsExactly(payloads.get(1));
    }

    @Test
    void aBuilderRefusesFeaturesThisBuildDoesNotImplement() {
        assertThatThrownBy(() -> ObjectLayer.builder(storage).supportedFeatures(Set.of("blob_time_travel")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blob_time_travel");
    }
}
