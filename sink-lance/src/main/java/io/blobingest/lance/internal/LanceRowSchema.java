package io.blobingest.lance.internal;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.HeaderColumn;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.annotation.Internal;

/**
 * The Lance dataset's schema, one row per placed blob, and how a batch of rows fills it. The
 * {@code blob} column is Lance's Blob v2 write-side input, {@code struct<data large_binary, uri
 * utf8, position uint64, size uint64>} marked with the extension name {@code lance.blob.v2}; Lance
 * stores its own descriptor for it. Columns added since the first version come last ({@code
 * timestamp}), then the typed columns of {@code sink.lance.columns} in their order, so that a
 * dataset an earlier version or setting created takes new ones at its end ({@link
 * LanceDatasets#addMissingColumns}).
 */
@Internal
public final class LanceRowSchema {

    public static final String KEY = "key";
    public static final String SOURCE_TOPIC = "source_topic";
    public static final String SOURCE_PARTITION = "source_partition";
    public static final String SOURCE_OFFSET = "source_offset";
    public static final String BLOB_SET = "blob_set";
    public static final String CRC32C = "crc32c";
    public static final String ATTRIBUTES = "attributes";
    public static final String BLOB = "blob";
    /** The input record's Kafka timestamp, UTC milliseconds; null when it had none. */
    public static final String TIMESTAMP = "timestamp";

    static final String BLOB_V2_EXTENSION = "lance.blob.v2";

    /** The dataset's own columns, without typed ones. */
    public static final Schema SCHEMA = new Schema(List.of(
            nullable(KEY, ArrowType.Binary.INSTANCE),
            notNull(SOURCE_TOPIC, ArrowType.Utf8.INSTANCE),
            notNull(SOURCE_PARTITION, new ArrowType.Int(32, true)),
            notNull(SOURCE_OFFSET, new ArrowType.Int(64, true)),
            nullable(BLOB_SET, ArrowType.Utf8.INSTANCE),
            nullable(CRC32C, new ArrowType.Int(32, false)),
            new Field(
                    ATTRIBUTES,
                    FieldType.notNullable(ArrowType.List.INSTANCE),
                    List.of(new Field(
                            "item",
                            FieldType.notNullable(ArrowType.Struct.INSTANCE),
                            List.of(
                                    notNull("name", ArrowType.Utf8.INSTANCE),
                                    nullable("value", ArrowType.Binary.INSTANCE))))),
            new Field(
                    BLOB,
                    new FieldType(
                            false, ArrowType.Struct.INSTANCE, null, Map.of("ARROW:extension:name", BLOB_V2_EXTENSION)),
                    List.of(
                            nullable("data", ArrowType.LargeBinary.INSTANCE),
                            nullable("uri", ArrowType.Utf8.INSTANCE),
                            nullable("position", new ArrowType.Int(64, false)),
                            nullable("size", new ArrowType.Int(64, false)))),
            nullable(TIMESTAMP, new ArrowType.Timestamp(TimeUnit.MILLISECOND, null))));

    private LanceRowSchema() {}

    /**
     * {@link #SCHEMA} and then a nullable column per typed column.
     *
     * @throws IllegalArgumentException when a typed column takes the name of one of the dataset's own
     */
    public static Schema schema(List<HeaderColumn> columns) {
        List<Field> fields = new ArrayList<>(SCHEMA.getFields());
        for (HeaderColumn column : columns) {
            if (SCHEMA.getFields().stream().anyMatch(f -> f.getName().equals(column.name()))) {
                throw new IllegalArgumentException("column " + column.name() + " is one of the dataset's own columns "
                        + SCHEMA.getFields().stream().map(Field::getName).toList() + ": name it otherwise");
            }
            fields.add(nullable(column.name(), arrowType(column.type())));
        }
        return new Schema(fields);
    }

    /**
     * A batch of {@code rows} with {@code columns} filled from their headers, {@code blobs.get(i)}
     * being row i's blob. The caller closes it.
     */
    static VectorSchemaRoot batch(
            BufferAllocator allocator, List<HeaderColumn> columns, List<DescriptorRow> rows, List<LanceBlob> blobs) {
        VectorSchemaRoot root = VectorSchemaRoot.create(schema(columns), allocator);
        try {
            root.allocateNew();
            for (int i = 0; i < rows.size(); i++) {
                setRow(root, i, rows.get(i), blobs.get(i));
                for (HeaderColumn column : columns) {
                    setTyped(root.getVector(column.name()), i, column, rows.get(i));
                }
            }
            root.setRowCount(rows.size());
            return root;
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    private static void setRow(VectorSchemaRoot root, int i, DescriptorRow row, LanceBlob blob) {
        VarBinaryVector key = (VarBinaryVector) root.getVector(KEY);
        if (row.key() == null) {
            key.setNull(i);
        } else {
            key.setSafe(i, row.key());
        }
        ((VarCharVector) root.getVector(SOURCE_TOPIC)).setSafe(i, utf8(row.sourceTopic()));
        ((IntVector) root.getVector(SOURCE_PARTITION)).setSafe(i, row.sourcePartition());
        ((BigIntVector) root.getVector(SOURCE_OFFSET)).setSafe(i, row.sourceOffset());
        VarCharVector blobSet = (VarCharVector) root.getVector(BLOB_SET);
        if (row.blobSet() == null) {
            blobSet.setNull(i);
        } else {
            blobSet.setSafe(i, utf8(row.blobSet()));
        }
        UInt4Vector crc = (UInt4Vector) root.getVector(CRC32C);
        if (row.crc32c() == null) {
            crc.setNull(i);
        } else {
            crc.setSafe(i, (int) (long) row.crc32c());
        }
        setAttributes((ListVector) root.getVector(ATTRIBUTES), i, row.attributes());
        setBlob((StructVector) root.getVector(BLOB), i, blob);
        TimeStampMilliVector timestamp = (TimeStampMilliVector) root.getVector(TIMESTAMP);
        if (row.sourceTimestamp() == null) {
            timestamp.setNull(i);
        } else {
            timestamp.setSafe(i, row.sourceTimestamp());
        }
    }

    private static ArrowType arrowType(HeaderColumn.Type type) {
        return switch (type) {
            case STRING -> ArrowType.Utf8.INSTANCE;
            case INT32 -> new ArrowType.Int(32, true);
            case INT64 -> new ArrowType.Int(64, true);
            case FLOAT64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case BOOL -> ArrowType.Bool.INSTANCE;
            case TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);
        };
    }

    /**
     * The header's value as the column's type; null when the header is missing, and also when it
     * does not parse: such a row was never classified with these columns (a backfill's
     * passed-through row, or a row in flight when the columns changed), and the dataset keeps it.
     */
    private static void setTyped(FieldVector vector, int i, HeaderColumn column, DescriptorRow row) {
        byte[] raw = column.lastValue(row.attributes());
        Object value;
        try {
            value = raw == null ? null : column.parse(raw);
        } catch (IllegalArgumentException e) {
            value = null;
        }
        if (value == null) {
            vector.setNull(i);
            return;
        }
        switch (column.type()) {
            case STRING -> ((VarCharVector) vector).setSafe(i, utf8((String) value));
            case INT32 -> ((IntVector) vector).setSafe(i, (Integer) value);
            case INT64 -> ((BigIntVector) vector).setSafe(i, (Long) value);
            case FLOAT64 -> ((Float8Vector) vector).setSafe(i, (Double) value);
            case BOOL -> ((BitVector) vector).setSafe(i, (Boolean) value ? 1 : 0);
            case TIMESTAMP -> ((TimeStampMilliVector) vector).setSafe(i, (Long) value);
        }
    }

    private static void setAttributes(ListVector list, int i, List<DescriptorRow.Attribute> attributes) {
        StructVector items = (StructVector) list.getDataVector();
        VarCharVector names = (VarCharVector) items.getChild("name");
        VarBinaryVector values = (VarBinaryVector) items.getChild("value");
        int start = list.startNewValue(i);
        for (int a = 0; a < attributes.size(); a++) {
            DescriptorRow.Attribute attribute = attributes.get(a);
            int at = start + a;
            items.setIndexDefined(at);
            names.setSafe(at, utf8(attribute.name()));
            if (attribute.value() == null) {
                values.setNull(at);
            } else {
                values.setSafe(at, attribute.value());
            }
        }
        list.endValue(i, attributes.size());
    }

    private static void setBlob(StructVector struct, int i, LanceBlob blob) {
        LargeVarBinaryVector data = (LargeVarBinaryVector) struct.getChild("data");
        VarCharVector uri = (VarCharVector) struct.getChild("uri");
        UInt8Vector position = (UInt8Vector) struct.getChild("position");
        UInt8Vector size = (UInt8Vector) struct.getChild("size");
        struct.setIndexDefined(i);
        if (blob.data() == null) {
            data.setNull(i);
        } else {
            data.setSafe(i, blob.data());
        }
        if (blob.uri() == null) {
            uri.setNull(i);
        } else {
            uri.setSafe(i, utf8(blob.uri()));
        }
        setNullable(position, i, blob.position());
        setNullable(size, i, blob.size());
    }

    private static void setNullable(UInt8Vector vector, int i, Long value) {
        if (value == null) {
            vector.setNull(i);
        } else {
            vector.setSafe(i, value);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Field nullable(String name, ArrowType type) {
        return new Field(name, FieldType.nullable(type), null);
    }

    private static Field notNull(String name, ArrowType type) {
        return new Field(name, FieldType.notNullable(type), null);
    }
}
