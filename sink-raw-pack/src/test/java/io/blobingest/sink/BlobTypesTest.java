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
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BlobTypesTest {

    private static final List<Attribute> HEADERS = List.of(
            new Attribute("a", "1".getBytes(UTF_8)), new Attribute("b", null), new Attribute("a", "2".getBytes(UTF_8)));
    private static final BlobRecord RECORD =
            new BlobRecord("k".getBytes(UTF_8), new byte[] {1, 2}, HEADERS, "in", 3, 9L, 1_765_000_000_000L);
    private static final BlobRecord BARE_RECORD = new BlobRecord(null, null, List.of(), "in", 0, 0L, null);

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
                                1_765_000_000_000L,
                                BlobDescriptor.packed(0x8000_0000_0000_0001L, 5, 3),
                                "set",
                                null,
                                0xFFFF_FFFFL,
                                HEADERS)),
                Arguments.of(
                        BlobTypes.DESCRIPTOR_ROW,
                        new DescriptorRow(
                                null,
                                "in",
                                1,
                                2,
                                null,
                                BlobDescriptor.inline(1),
                                null,
                                new byte[] {7},
                                1L,
                                List.of())));
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

    /**
     * An in-flight fetch in a checkpoint taken before input records carried their timestamp: Flink's
     * POJO schema evolution reads it with the field null and migrates the state.
     */
    @Test
    void anExternalFetchCheckpointedBeforeRecordsHadTimestampsRestores() throws IOException {
        SerializerConfigImpl config = new SerializerConfigImpl();
        TypeInformation<?> bytes = Types.PRIMITIVE_ARRAY(Types.BYTE);
        TypeInformation<BlobRecord> recordBefore = Types.POJO(
                BlobRecord.class,
                Map.of(
                        "key",
                        bytes,
                        "value",
                        bytes,
                        "headers",
                        Types.LIST(BlobTypes.ATTRIBUTE),
                        "topic",
                        Types.STRING,
                        "partition",
                        Types.INT,
                        "offset",
                        Types.LONG));
        TypeSerializer<ExternalFetch> before = Types.POJO(
                        ExternalFetch.class,
                        Map.of(
                                "record", recordBefore,
                                "location", Types.STRING,
                                "position", Types.LONG,
                                "size", Types.LONG,
                                "attributes", Types.LIST(BlobTypes.ATTRIBUTE)))
                .createSerializer(config);
        BlobRecord unstamped = new BlobRecord(RECORD.key(), RECORD.value(), HEADERS, "in", 3, 9L, null);
        ExternalFetch fetch = new ExternalFetch(unstamped, "file:///data/x", 3, 4, HEADERS);
        DataOutputSerializer state = new DataOutputSerializer(64);
        before.serialize(fetch, state);
        DataOutputSerializer snapshotBytes = new DataOutputSerializer(256);
        TypeSerializerSnapshot.writeVersionedSnapshot(snapshotBytes, before.snapshotConfiguration());
        TypeSerializerSnapshot<ExternalFetch> snapshot = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(snapshotBytes.getCopyOfBuffer()),
                getClass().getClassLoader());

        TypeSerializer<ExternalFetch> now = BlobTypes.EXTERNAL_FETCH.createSerializer(config);
        TypeSerializerSchemaCompatibility<ExternalFetch> compatibility =
                now.snapshotConfiguration().resolveSchemaCompatibility(snapshot);
        ExternalFetch restored =
                snapshot.restoreSerializer().deserialize(new DataInputDeserializer(state.getCopyOfBuffer()));

        assertThat(compatibility.isCompatibleAfterMigration())
                .as(compatibility.toString())
                .isTrue();
        assertThat(restored).usingRecursiveComparison().isEqualTo(fetch);
        DataOutputSerializer migrated = new DataOutputSerializer(64);
        now.serialize(restored, migrated);
        assertThat(now.deserialize(new DataInputDeserializer(migrated.getCopyOfBuffer()))
                        .record()
                        .timestamp())
                .isNull();
    }
}
