package io.blobingest.sink.internal.state;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import io.blobingest.sink.BlobTypes;
import java.io.IOException;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class PlacedBlobSerializerTest {

    private static final int PAYLOAD = 100_000;
    private static final List<Attribute> HEADERS = List.of(new Attribute("camera", "front".getBytes(UTF_8)));

    private final TypeSerializer<PlacedBlob> serializer =
            BlobTypes.PLACED_BLOB.createSerializer(new SerializerConfigImpl());

    @Test
    void aBlobWhoseBytesAreItsRecordsValueCarriesThePayloadOnce() throws IOException {
        byte[] payload = payload();
        PlacedBlob blob = new PlacedBlob(record(payload), Placement.PACKED, payload, HEADERS, null);

        byte[] written = serialize(blob);
        PlacedBlob read = deserialize(written);

        assertThat(written.length).isBetween(PAYLOAD, PAYLOAD + 200);
        assertThat(read).usingRecursiveComparison().isEqualTo(blob);
        assertThat(read.record().value())
                .as("one array under both names, as before")
                .isSameAs(read.bytes());
    }

    @Test
    void aValueThatIsNotTheBytesIsKeptApart() throws IOException {
        byte[] fetched = payload();
        PlacedBlob blob = new PlacedBlob(record(new byte[] {9}), Placement.PACKED, fetched, HEADERS, null);

        PlacedBlob read = deserialize(serialize(blob));

        assertThat(read).usingRecursiveComparison().isEqualTo(blob);
        assertThat(read.record().value()).isNotSameAs(read.bytes());
    }

    @Test
    void anExternalReferenceWithoutBytesRoundTrips() throws IOException {
        PlacedBlob blob = new PlacedBlob(
                record(null), Placement.EXTERNAL, null, List.of(), BlobDescriptor.external("s3://b/k", 0, 5));

        assertThat(deserialize(serialize(blob))).usingRecursiveComparison().isEqualTo(blob);
    }

    @Test
    void aCopyKeepsThePayloadShared() {
        byte[] payload = payload();
        PlacedBlob blob = new PlacedBlob(record(payload), Placement.DEDICATED, payload, HEADERS, null);

        PlacedBlob copy = serializer.copy(blob);

        assertThat(copy).usingRecursiveComparison().isEqualTo(blob);
        assertThat(copy.bytes()).isNotSameAs(payload);
        assertThat(copy.record().value()).isSameAs(copy.bytes());
    }

    @Test
    void copyingSerializedBytesCopiesTheFlagAndTheFields() throws IOException {
        byte[] payload = payload();
        byte[] written = serialize(new PlacedBlob(record(payload), Placement.PACKED, payload, HEADERS, null));

        DataOutputSerializer copied = new DataOutputSerializer(written.length); // write(DataInputView, n) does not grow
        serializer.copy(new DataInputDeserializer(written), copied);

        assertThat(copied.getCopyOfBuffer()).isEqualTo(written);
    }

    @Test
    void itsSnapshotRestoresAnEqualSerializerThatIsCompatibleAsIs() throws IOException {
        TypeSerializerSnapshot<PlacedBlob> snapshot = serializer.snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, snapshot);

        TypeSerializerSnapshot<PlacedBlob> read = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());

        assertThat(read.restoreSerializer()).isEqualTo(serializer);
        TypeSerializerSchemaCompatibility<PlacedBlob> compatibility =
                serializer.snapshotConfiguration().resolveSchemaCompatibility(read);
        assertThat(compatibility.isCompatibleAsIs()).isTrue();
    }

    private static BlobRecord record(byte[] value) {
        return new BlobRecord("k".getBytes(UTF_8), value, HEADERS, "frames", 1, 42L, null);
    }

    private static byte[] payload() {
        byte[] payload = new byte[PAYLOAD];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31);
        }
        return payload;
    }

    private byte[] serialize(PlacedBlob blob) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(blob, out);
        return out.getCopyOfBuffer();
    }

    private PlacedBlob deserialize(byte[] written) throws IOException {
        return serializer.deserialize(new DataInputDeserializer(written));
    }
}
