package io.blobingest.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobDescriptor;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PlacedBlobTest {

    private static final BlobRecord RECORD = new BlobRecord(null, null, List.of(), "in", 0, 0, null);
    private static final ExternalBytes SOURCE = new ExternalBytes("file:///data/x", 3, 1000);

    @Test
    void aDedicatedBlobCopiedFromASourceCarriesNoBytesAndHasTheSourceLength() {
        PlacedBlob placed = PlacedBlob.copiedFrom(SOURCE, RECORD, List.of());

        assertThat(placed.placement()).isEqualTo(Placement.DEDICATED);
        assertThat(placed.bytes()).isNull();
        assertThat(placed.source()).isEqualTo(SOURCE);
        assertThat(placed.placedLength()).isEqualTo(1000);
    }

    @Test
    void placedLengthIsTheBytesLengthOrZeroForAReference() {
        assertThat(new PlacedBlob(RECORD, Placement.PACKED, new byte[7], List.of(), null).placedLength())
                .isEqualTo(7);
        assertThat(new PlacedBlob(
                                RECORD, Placement.EXTERNAL, null, List.of(), BlobDescriptor.external("s3://b/k", 0, 9))
                        .placedLength())
                .isZero();
    }

    @ParameterizedTest
    @EnumSource(
            value = Placement.class,
            names = {"INLINE", "PACKED", "EXTERNAL"})
    void onlyADedicatedBlobIsCopiedFromASource(Placement placement) {
        BlobDescriptor external = placement == Placement.EXTERNAL ? BlobDescriptor.external("s3://b/k", 0, 0) : null;

        assertThatThrownBy(() -> new PlacedBlob(RECORD, placement, null, List.of(), external, SOURCE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("only a DEDICATED blob is copied from a source, found " + placement);
    }

    @Test
    void aBlobCopiedFromASourceCannotAlsoCarryBytes() {
        assertThatThrownBy(() -> new PlacedBlob(RECORD, Placement.DEDICATED, new byte[1], List.of(), null, SOURCE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bytes are given iff placement is not EXTERNAL and there is no source");
    }

    @Test
    void aDedicatedBlobNeedsBytesOrASource() {
        assertThatThrownBy(() -> new PlacedBlob(RECORD, Placement.DEDICATED, null, List.of(), null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bytes are given iff placement is not EXTERNAL and there is no source, found DEDICATED");
    }

    @Test
    void anExternalRangeIsNeverNegative() {
        assertThatThrownBy(() -> new ExternalBytes("file:///x", -1, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("external byte range must have offset and length >= 0, found offset -1, length 5");
    }
}
