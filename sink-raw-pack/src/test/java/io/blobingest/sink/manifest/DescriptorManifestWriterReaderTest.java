package io.blobingest.sink.manifest;

import static io.blobingest.sink.DescriptorRows.assertSameRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobFeatures;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.objectlayer.pack.RawPackFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DescriptorManifestWriterReaderTest {

    private static final String SET = "run-0-1";

    @Test
    void everyKindRoundTripsWithNullsAndRepeatedAttributes() throws IOException {
        List<DescriptorRow> rows = List.of(
                row(null, BlobDescriptor.inline(0), null, new byte[0], 0L, List.of()),
                row(
                        bytes("k1"),
                        BlobDescriptor.inline(3),
                        null,
                        bytes("abc"),
                        0x1234_5678L,
                        List.of(
                                new Attribute("h", bytes("v")),
                                new Attribute("h", null),
                                new Attribute("ü", new byte[0]))),
                row(
                        bytes("k2"),
                        BlobDescriptor.packed(RawPackFormat.entryReference(7), 70_000, 3),
                        SET,
                        null,
                        0xFFFF_FFFFL,
                        List.of()),
                row(new byte[0], BlobDescriptor.dedicated(5L << 30, 0xFFFF_FFFFL), SET, null, 0L, List.of()),
                row(
                        bytes("k4"),
                        BlobDescriptor.external("s3://b/o", 0, 0),
                        null,
                        null,
                        null,
                        List.of(new Attribute("x", bytes("y")))),
                row(null, BlobDescriptor.external("file:///x", -2, 1), null, null, null, List.of()));

        byte[] manifest = write(SET, rows);

        try (DescriptorManifestReader reader = open(manifest)) {
            assertThat(reader.blobSet()).isEqualTo(SET);
            assertThat(reader.requiredFeatures()).containsExactly(RawPackFormat.FEATURE_BLOB_OBJECT_PACK);
            assertSameRows(reader.readAll(), rows);
        }
    }

    @Test
    void schemaAndMetadataFollowTheSpec() throws IOException {
        byte[] manifest = write(SET, List.of(row(null, BlobDescriptor.inline(1), null, new byte[1], 1L, List.of())));
        try (BufferAllocator allocator = new RootAllocator();
                org.apache.arrow.vector.ipc.ArrowFileReader arrow = new org.apache.arrow.vector.ipc.ArrowFileReader(
                        new ByteArrayReadableSeekableByteChannel(manifest), allocator)) {
            Schema schema = arrow.getVectorSchemaRoot().getSchema();
            assertThat(schema.getCustomMetadata())
                    .containsExactlyInAnyOrderEntriesOf(
                            Map.of("blob_set", SET, "required_features", "", "spec_version", "1"));
            assertThat(schema.getFields())
                    .extracting(Field::getName)
                    .containsExactly(
                            "key",
                            "source_topic",
                            "source_partition",
                            "source_offset",
                            "blob",
                            "inline_data",
                            "crc32c",
                            "attributes",
                            "source_timestamp");
            Field blob = schema.findField("blob");
            assertThat(blob.isNullable()).isFalse();
            assertThat(blob.getChildren())
                    .extracting(f -> f.getName() + ":" + f.getType() + ":" + f.isNullable())
                    .containsExactly(
                            "kind:Int(8, false):false",
                            "position:Int(64, false):false",
                            "size:Int(64, false):false",
                            "blob_id:Int(32, false):false",
                            "blob_uri:Utf8:false");
            assertThat(schema.findField("key").isNullable()).isTrue();
            assertThat(schema.findField("inline_data").getType()).isEqualTo(ArrowType.LargeBinary.INSTANCE);
            assertThat(schema.findField("crc32c").getType()).isEqualTo(new ArrowType.Int(32, false));
            assertThat(schema.findField("attributes").getType()).isEqualTo(new ArrowType.Map(false));
        }
    }

    @Test
    void manyRowsSpanSeveralRecordBatches() throws IOException {
        List<DescriptorRow> rows = new ArrayList<>();
        for (int i = 0; i < DescriptorManifestWriter.MAX_ROWS_PER_BATCH * 2 + 17; i++) {
            rows.add(row(
                    bytes("k" + i),
                    BlobDescriptor.packed(RawPackFormat.entryReference(i), i, 1),
                    SET,
                    null,
                    (long) i,
                    i % 2 == 0 ? List.of() : List.of(new Attribute("n", bytes(Integer.toString(i))))));
        }
        byte[] manifest = write(SET, rows);
        try (DescriptorManifestReader reader = open(manifest)) {
            assertSameRows(reader.readAll(), rows);
        }
    }

    @Test
    void rowsArePulledOneAtATimeAcrossRecordBatchesAndTheRestFollowInOrder() throws IOException {
        int pulled = DescriptorManifestWriter.MAX_ROWS_PER_BATCH + 1;
        List<DescriptorRow> rows = new ArrayList<>();
        for (int i = 0; i < pulled + 3; i++) {
            rows.add(row(
                    bytes("k" + i),
                    BlobDescriptor.inline(1),
                    null,
                    bytes(Integer.toString(i % 10)),
                    (long) i,
                    List.of()));
        }
        try (DescriptorManifestReader reader = open(write(SET, rows))) {
            List<DescriptorRow> first = new ArrayList<>();
            for (int i = 0; i < pulled; i++) {
                first.add(reader.nextRow());
            }
            List<DescriptorRow> rest = reader.readAll();

            assertSameRows(first, rows.subList(0, pulled));
            assertSameRows(rest, rows.subList(pulled, rows.size()));
            assertThat(reader.nextRow()).as("after the last row").isNull();
        }
    }

    @Test
    void largeInlineBlobsAreSplitIntoBoundedBatches() throws IOException {
        List<DescriptorRow> rows = new ArrayList<>();
        byte[] inline = new byte[6 * 1024 * 1024];
        for (int i = 0; i < 5; i++) {
            inline[i] = (byte) i;
            rows.add(row(null, BlobDescriptor.inline(inline.length), null, inline.clone(), 1L, List.of()));
        }
        byte[] manifest = write(SET, rows);
        try (BufferAllocator allocator = new RootAllocator();
                org.apache.arrow.vector.ipc.ArrowFileReader arrow = new org.apache.arrow.vector.ipc.ArrowFileReader(
                        new ByteArrayReadableSeekableByteChannel(manifest), allocator)) {
            assertThat(arrow.getRecordBlocks()).hasSize(3);
        }
        try (DescriptorManifestReader reader = open(manifest)) {
            assertSameRows(reader.readAll(), rows);
        }
    }

    @Test
    void emptyManifestHasSchemaAndNoRows() throws IOException {
        try (DescriptorManifestReader reader = open(write(SET, List.of()))) {
            assertThat(reader.requiredFeatures()).isEmpty();
            assertThat(reader.readAll()).isEmpty();
        }
    }

    @Test
    void readerOpensAManifestThroughFlinkFileSystem(@TempDir java.nio.file.Path dir) throws IOException {
        List<DescriptorRow> rows = List.of(row(bytes("k"), BlobDescriptor.inline(2), null, bytes("hi"), 5L, List.of()));
        java.nio.file.Path file = dir.resolve(SET + ".arrow");
        java.nio.file.Files.write(file, write(SET, rows));
        try (DescriptorManifestReader reader = DescriptorManifestReader.open(new Path(file.toUri()))) {
            assertSameRows(reader.readAll(), rows);
        }
    }

    @Test
    void aRowNamingAnotherBlobSetAddsTheBlobSetColumnAndRequiresSharedObjects() throws IOException {
        List<DescriptorRow> rows = List.of(
                row(null, BlobDescriptor.dedicated(1, 1), "other-set", null, 1L, List.of()),
                row(null, BlobDescriptor.dedicated(1, 2), SET, null, 1L, List.of()),
                row(null, BlobDescriptor.inline(1), null, new byte[] {1}, 1L, List.of()));

        try (DescriptorManifestReader reader = open(write(SET, rows))) {
            assertThat(reader.requiredFeatures()).containsExactly(BlobFeatures.BLOB_SHARED_OBJECT);
            assertThat(reader.readAll()).extracting(DescriptorRow::blobSet).containsExactly("other-set", SET, null);
        }
        assertThatThrownBy(() -> write("Not_Valid", List.of())).hasMessageContaining("[0-9a-z-]{1,64}");
    }

    @Test
    void theBlobSetColumnWithoutTheFeatureThatAnnouncesItIsRefused() throws IOException {
        byte[] file = arrowFile(
                DescriptorManifestSchema.SHARED_FIELDS,
                Map.of("blob_set", SET, "required_features", "", "spec_version", "1"));
        assertThatThrownBy(() -> open(file))
                .isInstanceOf(ManifestFormatException.class)
                .hasMessageContaining("mem.arrow: column blob_set needs the required feature blob_shared_object");
    }

    @Test
    void aBlobSetColumnOfAnotherTypeWithItsFeatureIsASchemaMismatch() throws IOException {
        List<Field> fields = new ArrayList<>(DescriptorManifestSchema.SHARED_FIELDS);
        fields.set(fields.size() - 1, new Field("blob_set", FieldType.nullable(ArrowType.Binary.INSTANCE), null));
        byte[] file = arrowFile(
                fields, Map.of("blob_set", SET, "required_features", "blob_shared_object", "spec_version", "1"));
        assertThatThrownBy(() -> open(file))
                .isInstanceOf(ManifestFormatException.class)
                .hasMessageContaining("mem.arrow: schema mismatch at column blob_set");
    }

    @Test
    void readerRejectsUnknownSpecVersion() throws IOException {
        byte[] file = arrowFile(
                DescriptorManifestSchema.FIELDS, Map.of("blob_set", SET, "required_features", "", "spec_version", "2"));
        assertThatThrownBy(() -> open(file))
                .isInstanceOf(ManifestFormatException.class)
                .hasMessageContaining("mem.arrow: unsupported spec_version: expected \"1\", found \"2\"");
    }

    @Test
    void readerRejectsUnknownRequiredFeature() throws IOException {
        byte[] file = arrowFile(
                DescriptorManifestSchema.FIELDS,
                Map.of("blob_set", SET, "required_features", "blob_object_pack,time_travel", "spec_version", "1"));
        assertThatThrownBy(() -> open(file))
                .isInstanceOf(ManifestFormatException.class)
                .hasMessageContaining("unknown required feature")
                .hasMessageContaining("found \"time_travel\"");
    }

    @Test
    void readerRejectsAChangedColumn() throws IOException {
        List<Field> fields = new ArrayList<>(DescriptorManifestSchema.FIELDS);
        fields.set(6, new Field("crc32c", FieldType.nullable(new ArrowType.Int(64, false)), null));
        byte[] file = arrowFile(fields, Map.of("blob_set", SET, "required_features", "", "spec_version", "1"));
        assertThatThrownBy(() -> open(file))
                .isInstanceOf(ManifestFormatException.class)
                .hasMessageContaining("schema mismatch at column crc32c")
                .hasMessageContaining("crc32c: Int(64, false)");
    }

    @Test
    void rowsKeepTheirInputsKafkaTimestamps() throws IOException {
        List<DescriptorRow> rows = List.of(
                stamped(row(null, BlobDescriptor.inline(1), null, new byte[1], 1L, List.of()), 1_765_000_000_123L),
                row(null, BlobDescriptor.inline(1), null, new byte[1], 1L, List.of()));

        try (DescriptorManifestReader reader = open(write(SET, rows))) {
            assertThat(reader.readAll())
                    .extracting(DescriptorRow::sourceTimestamp)
                    .containsExactly(1_765_000_000_123L, null);
        }
        assertThat(DescriptorManifestSchema.FIELDS
                        .get(DescriptorManifestSchema.FIELDS.size() - 1)
                        .getType())
                .isEqualTo(new ArrowType.Timestamp(TimeUnit.MILLISECOND, null));
    }

    @Test
    void aManifestWrittenBeforeSourceTimestampExistedReadsWithoutTimestamps() throws IOException {
        List<DescriptorRow> rows = List.of(
                row(bytes("k"), BlobDescriptor.inline(2), null, bytes("ab"), 7L, List.of(new Attribute("h", null))),
                row(null, BlobDescriptor.dedicated(10, 1), SET, null, 8L, List.of()));
        byte[] stamped = write(SET, List.of(stamped(rows.get(0), 5L), stamped(rows.get(1), 6L)));

        byte[] older = rewritten(stamped, columns -> {
            columns.removeIf(c -> c.getName().equals(DescriptorManifestSchema.SOURCE_TIMESTAMP));
            return columns;
        });

        try (DescriptorManifestReader reader = open(older)) {
            assertSameRows(reader.readAll(), rows);
        }
    }

    @Test
    void columnsAreFoundByNameInAnyOrderAndUnknownColumnsAreIgnored() throws IOException {
        List<DescriptorRow> rows = List.of(
                stamped(row(bytes("k"), BlobDescriptor.inline(2), null, bytes("ab"), 7L, List.of()), 9L),
                row(null, BlobDescriptor.external("s3://b/o", 0, 3), null, null, null, List.of()));

        try (BufferAllocator allocator = new RootAllocator();
                VarCharVector note = new VarCharVector("operator_note", allocator)) {
            note.allocateNew();
            note.setSafe(0, bytes("checked"));
            note.setNull(1);
            note.setValueCount(2);
            byte[] reordered = rewritten(write(SET, rows), columns -> {
                Collections.reverse(columns);
                columns.add(2, note);
                return columns;
            });

            try (DescriptorManifestReader reader = open(reordered)) {
                assertSameRows(reader.readAll(), rows);
            }
        }
    }

    @Test
    void aColumnThatAppearsTwiceIsRefused() throws IOException {
        List<Field> fields = new ArrayList<>(DescriptorManifestSchema.FIELDS);
        fields.add(fields.get(0));
        byte[] file = arrowFile(fields, Map.of("blob_set", SET, "required_features", "", "spec_version", "1"));
        assertThatThrownBy(() -> open(file))
                .isInstanceOf(ManifestFormatException.class)
                .hasMessage("mem.arrow: column key appears twice");
    }

    @Test
    void readerRejectsABadBlobSetName() throws IOException {
        byte[] file = arrowFile(
                DescriptorManifestSchema.FIELDS,
                Map.of("blob_set", "../etc", "required_features", "", "spec_version", "1"));
        assertThatThrownBy(() -> open(file))
                .hasMessageContaining("bad blob_set metadata")
                .hasMessageContaining("../etc");
    }

    @Test
    void readerRejectsSomethingThatIsNotArrow() {
        assertThatThrownBy(() -> open("not an arrow file at all".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(ManifestFormatException.class)
                .hasMessageStartingWith("mem.arrow: not an Arrow IPC file");
    }

    private static DescriptorRow row(
            byte[] key, BlobDescriptor blob, String blobSet, byte[] inline, Long crc, List<Attribute> attributes) {
        return new DescriptorRow(key, "t", 1, 42, null, blob, blobSet, inline, crc, attributes);
    }

    private static DescriptorRow stamped(DescriptorRow row, long timestamp) {
        return new DescriptorRow(
                row.key(),
                row.sourceTopic(),
                row.sourcePartition(),
                row.sourceOffset(),
                timestamp,
                row.blob(),
                row.blobSet(),
                row.inlineData(),
                row.crc32c(),
                row.attributes());
    }

    /** {@code manifest}'s one batch written again with the columns {@code edit} returns, same metadata. */
    private static byte[] rewritten(byte[] manifest, UnaryOperator<List<FieldVector>> edit) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (BufferAllocator allocator = new RootAllocator();
                ArrowFileReader in =
                        new ArrowFileReader(new ByteArrayReadableSeekableByteChannel(manifest), allocator)) {
            VectorSchemaRoot source = in.getVectorSchemaRoot();
            assertThat(in.loadNextBatch()).isTrue();
            List<FieldVector> columns = edit.apply(new ArrayList<>(source.getFieldVectors()));
            Schema schema = new Schema(
                    columns.stream().map(FieldVector::getField).toList(),
                    source.getSchema().getCustomMetadata());
            VectorSchemaRoot root = new VectorSchemaRoot(schema, columns, source.getRowCount());
            try (ArrowFileWriter writer = new ArrowFileWriter(root, null, Channels.newChannel(out))) {
                writer.start();
                writer.writeBatch();
                writer.end();
            }
        }
        return out.toByteArray();
    }

    private static byte[] write(String blobSet, List<DescriptorRow> rows) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DescriptorManifestWriter.write(blobSet, rows, out);
        return out.toByteArray();
    }

    private static DescriptorManifestReader open(byte[] manifest) throws IOException {
        return DescriptorManifestReader.open(new ByteArrayReadableSeekableByteChannel(manifest), "mem.arrow");
    }

    private static byte[] arrowFile(List<Field> fields, Map<String, String> metadata) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields, metadata), allocator);
                ArrowFileWriter writer = new ArrowFileWriter(root, null, Channels.newChannel(out))) {
            writer.start();
            writer.end();
        }
        return out.toByteArray();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
