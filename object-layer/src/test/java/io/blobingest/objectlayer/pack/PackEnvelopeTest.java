package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.TestPacks.ascii;
import static io.blobingest.objectlayer.pack.TestPacks.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.pack.RecordingObject.Read;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The framing every pack type shares, read without knowing the type. */
class PackEnvelopeTest {

    private static final String FILE = "/data/set-1/1.blob";

    @Test
    void readsTheMetadataAndEntryTableOfAPackTypeTheRawReaderRefuses() throws IOException {
        HandBuiltPack builder = new HandBuiltPack()
                .entry(ascii("abc"))
                .metadata("{\"pack_type\":\"zip\",\"pack_version\":7,\"required_features\":[]}");
        byte[] pack = builder.build();
        RecordingObject object = new RecordingObject(FILE, pack);

        PackEnvelope envelope = PackEnvelope.read(object, pack.length);

        assertThat(envelope.metadata()).containsEntry("pack_type", "zip").containsEntry("pack_version", 7);
        assertThat(envelope.entryCount()).isEqualTo(1);
        assertThat(envelope.footerStart()).isEqualTo(builder.footerStart());
        assertThat(envelope.metadataStart()).isEqualTo(builder.metadataStart());
        ByteBuffer table = envelope.entryTable();
        assertThat(table.isReadOnly()).isTrue();
        assertThat(table.getLong(0)).as("offset").isEqualTo(16);
        assertThat(table.getLong(8)).as("length").isEqualTo(3);
        assertThat(object.reads()).containsExactly(new Read(0, pack.length));
        assertThatThrownBy(() -> RawPackReader.withAllFeatures().readFooter(new RecordingObject(FILE, pack)))
                .isInstanceOf(UnsupportedPackException.class)
                .hasMessageContaining("unknown pack_type");
    }

    @Test
    void lastBytesAreTheWholeSmallPackOrReachBackExactlyToALargeFooter() throws IOException {
        byte[] small = TestPacks.write(ascii("a"));
        byte[][] payloads = new byte[5000][];
        Arrays.setAll(payloads, i -> bytes(i % 3, i));
        byte[] large = TestPacks.write(payloads);
        RecordingObject largeObject = new RecordingObject(FILE, large);

        PackEnvelope smallEnvelope = PackEnvelope.read(new RecordingObject(FILE, small), small.length);
        PackEnvelope largeEnvelope = PackEnvelope.read(largeObject, large.length);

        assertThat(smallEnvelope.lastBytes()).isEqualTo(small);
        long footerStart = largeEnvelope.footerStart();
        assertThat(largeEnvelope.lastBytes()).isEqualTo(Arrays.copyOfRange(large, (int) footerStart, large.length));
        assertThat(largeObject.reads()).hasSize(2);
    }

    @Test
    void requiredFeaturesMustAllBeSupported() throws IOException {
        byte[] pack = TestPacks.write();
        PackEnvelope envelope = PackEnvelope.read(new RecordingObject(FILE, pack), pack.length);

        assertThat(envelope.requiredFeatures(Set.of("blob_object_pack", "other")))
                .containsExactly("blob_object_pack");
        assertThatThrownBy(() -> envelope.requiredFeatures(Set.of("other")))
                .isInstanceOf(UnsupportedPackException.class)
                .hasMessageEndingWith(
                        ": expected one of the features this reader supports [other], found \"blob_object_pack\"");
    }

    @Test
    void aFileShorterThanAnyPackIsRefusedBeforeAnyRead() {
        RecordingObject object = new RecordingObject(FILE, new byte[47]);

        assertThatThrownBy(() -> PackEnvelope.read(object, 47))
                .isInstanceOf(CorruptPackException.class)
                .hasMessage(FILE + ": truncated pack at offset 0: expected at least 48 bytes, found 47 bytes");
        assertThat(object.reads()).isEmpty();
    }
}
