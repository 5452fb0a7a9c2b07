package io.blobingest.sink;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalBytes;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BlobTypesTest {

    private static final List<Attribute> HEADERS = List.of(
            new Attribute("a", "1".getBytes(UTF_8)), new Attribute("b", null), new Attribute("a", "2".getBytes(UTF_8)));
    private static final BlobRecord RECORD =
            new BlobRecord("k".getBytes(UTF_8), new byte[] {1, 2}, HEADERS, "in", 3, 9L);
    private static final BlobRecord BARE_RECORD = new BlobRecord(null, null, List.of(), "in", 0, 0L);

    static Stream<Arguments> values() {
        return Stream.of(
                Arguments.of(BlobTypes.BLOB_RECORD, RECORD),
                Arguments.of(BlobTypes.BLOB_RECORD, BARE_RECORD),
                Arguments.of(BlobTypes.DEAD_LETTER, new DeadLetter(BARE_RECORD, DeadLetterCode.NULL_VALUE, "no value")),
                Arguments.of(
                        BlobTypes.PLACED_BLOB,
                        new PlacedBlob(RECORD, Placement.PACKED, new byte[] {1, 2}, HEADERS, null)),
                Arguments.of(
                        BlobTypes.PLACED_BLOB,
                        new PlacedBlob(
                                RECORD,
                                Placement.EXTERNAL,
                                null,
                                List.of(),
                                BlobDescriptor.external("s3://b/k", 1, 2))),
                Arguments.of(
                        BlobTypes.PLACED_BLOB,
                        PlacedBlob.copiedFrom(new ExternalBytes("s3://b/k", 7, 5_000_000_000L), RECORD, HEADERS)),
                Arguments.of(BlobTypes.EXTERNAL_FETCH, new ExternalFetch(RECORD, "file:///data/x", 3, 4, HEADERS)),
                Arguments.of(
                        BlobTypes.DESCRIPTOR_ROW,
                        new DescriptorRow(
                                "k".getBytes(UTF_8),
                                "in",
                                1,
                                2,
                                BlobDescriptor.packed(0x8000_0000_0000_0001L, 5, 3),
                                "set",
                                null,
                                0xFFFF_FFFFL,
                                HEADERS)),
                Arguments.of(
                        BlobTypes.DESCRIPTOR_ROW,
                        new DescriptorRow(
                                null, "in", 1, 2, BlobDescriptor.inline(1), null, new byte[] {7}, 1L, List.of())));
    }

    @ParameterizedTest
    @MethodSource("values")
    <T> void roundTripsWithoutKryo(TypeInformation<T> type, T value) throws IOException {
        SerializerConfigImpl noGenericTypes = new SerializerConfigImpl();
        noGenericTypes.setGenericTypes(false);
        TypeSerializer<T> serializer = type.createSerializer(noGenericTypes);

        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(value, out);
        T read = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));

        assertThat(read).usingRecursiveComparison().isEqualTo(value);
        assertThat(serializer.copy(value)).usingRecursiveComparison().isEqualTo(value);
    }
}
