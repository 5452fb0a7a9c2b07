package io.blobingest.sink.manifest;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobFeatures;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Reads a descriptor manifest (spec.md section 5) back into {@link DescriptorRow}s.
 *
 * <p>Opening validates everything that is not per row: the columns it reads, found by name
 * (types, nullability; columns it does not know are ignored), {@code spec_version}, the {@code
 * blob_set} name and that every {@code required_features} item is known to this build. Rows are
 * then checked against the descriptor rules as they are read. Packed and Dedicated rows get the
 * manifest's {@code blob_set}, or, in a manifest that requires {@code blob_shared_object}, their
 * own {@code blob_set} column's value when it is not null.
 *
 * <p>Rows are read once, in file order, one at a time ({@link #nextRow}) or all at once. Not
 * thread-safe.
 */
@PublicEvolving
public final class DescriptorManifestReader implements Closeable {

    /** Features this build's readers understand; a manifest requiring another is refused. */
    private static final Set<String> SUPPORTED_FEATURES = BlobFeatures.ALL;

    private final String location;
    private final BufferAllocator allocator;
    private final ArrowFileReader reader;
    private final String blobSet;
    private final List<String> requiredFeatures;
    /** The loaded record batch, null before the first; {@link #rowInBatch} rows of it were read. */
    private BatchView batch;

    private int rowInBatch;
    private long rowIndex;

    private DescriptorManifestReader(
            String location,
            BufferAllocator allocator,
            ArrowFileReader reader,
            String blobSet,
            List<String> requiredFeatures) {
        this.location = location;
        this.allocator = allocator;
        this.reader = reader;
        this.blobSet = blobSet;
        this.requiredFeatures = requiredFeatures;
    }

    /** Opens the manifest at {@code path} on its Flink file system. */
    public static DescriptorManifestReader open(Path path) throws IOException {
        FileSystem fs = path.getFileSystem();
        long length = fs.getFileStatus(path).getLen();
        return open(new FlinkFileChannel(fs.open(path), length), path.toString());
    }

    /**
     * Opens the manifest readable from {@code channel}; the reader owns and closes the channel.
     *
     * @param location the manifest's path or URI, for error messages
     * @throws ManifestFormatException if the file is not a manifest this build can read
     */
    public static DescriptorManifestReader open(SeekableByteChannel channel, String location) throws IOException {
        BufferAllocator allocator = new RootAllocator();
        ArrowFileReader reader = new ArrowFileReader(channel, allocator);
        try {
            Schema schema;
            try {
                schema = reader.getVectorSchemaRoot().getSchema();
            } catch (IOException | RuntimeException e) {
                throw new ManifestFormatException(location, "not an Arrow IPC file (" + e.getMessage() + ")", e);
            }
            Map<String, String> metadata = schema.getCustomMetadata();
            checkSpecVersion(location, metadata.get(DescriptorManifestSchema.META_SPEC_VERSION));
            String blobSet = metadata.get(DescriptorManifestSchema.META_BLOB_SET);
            if (!BlobSets.isValidName(blobSet)) {
                throw new ManifestFormatException(
                        location,
                        "bad blob_set metadata: expected " + BlobSets.NAME_REGEX + ", found " + quote(blobSet));
            }
            List<String> requiredFeatures =
                    requiredFeatures(location, metadata.get(DescriptorManifestSchema.META_REQUIRED_FEATURES));
            checkFields(
                    location,
                    schema.getFields(),
                    requiredFeatures.contains(BlobFeatures.BLOB_SHARED_OBJECT)
                            ? DescriptorManifestSchema.SHARED_FIELDS
                            : DescriptorManifestSchema.FIELDS);
            return new DescriptorManifestReader(location, allocator, reader, blobSet, requiredFeatures);
        } catch (IOException | RuntimeException e) {
            closeQuietlyAfter(e, reader, allocator);
            throw e;
        }
    }

    public String location() {
        return location;
    }

    /** The {@code blob_set} of the schema metadata. */
    public String blobSet() {
        return blobSet;
    }

    /** The {@code required_features} of the schema metadata, empty if none. */
    public List<String> requiredFeatures() {
        return requiredFeatures;
    }

    /**
     * The next row in file order, or null after the last one: rows are pulled one at a time, so a
     * caller can stop and resume between rows (a source that checkpoints how many it has read).
     *
     * @throws ManifestFormatException naming the row if a row breaks the descriptor rules
     */
    public DescriptorRow nextRow() throws IOException {
        while (batch == null || rowInBatch == batch.rowCount) {
            if (!reader.loadNextBatch()) {
                return null;
            }
            batch = new BatchView(reader.getVectorSchemaRoot());
            rowInBatch = 0;
        }
        return batch.row(rowInBatch++, rowIndex++);
    }

    /**
     * Passes every row not read yet, in file order, to {@code action}.
     *
     * @throws ManifestFormatException naming the row if a row breaks the descriptor rules
     */
    public void forEachRow(Consumer<DescriptorRow> action) throws IOException {
        for (DescriptorRow row = nextRow(); row != null; row = nextRow()) {
            action.accept(row);
        }
    }

    /** All rows not read yet, in file order. */
    public List<DescriptorRow> readAll() throws IOException {
        List<DescriptorRow> rows = new ArrayList<>();
        forEachRow(rows::add);
        return rows;
    }

    @Override
    public void close() throws IOException {
        try {
            reader.close();
        } finally {
            allocator.close();
        }
    }

    private static void checkSpecVersion(String location, String specVersion) throws ManifestFormatException {
        if (!DescriptorManifestSchema.SPEC_VERSION.equals(specVersion)) {
            throw new ManifestFormatException(
                    location,
                    "unsupported spec_version: expected \"" + DescriptorManifestSchema.SPEC_VERSION + "\", found "
                            + quote(specVersion));
        }
    }

    /**
     * Finds the columns it reads by name (spec.md section 5): each must have its type, all but the
     * {@linkplain DescriptorManifestSchema#OPTIONAL_COLUMNS optional} ones must be there; other
     * columns are ignored.
     */
    private static void checkFields(String location, List<Field> actual, List<Field> expected)
            throws ManifestFormatException {
        Map<String, Field> found = new HashMap<>();
        for (Field field : actual) {
            if (found.put(field.getName(), field) != null) {
                throw new ManifestFormatException(location, "column " + field.getName() + " appears twice");
            }
        }
        boolean sharedObjects =
                expected.stream().anyMatch(f -> f.getName().equals(DescriptorManifestSchema.ROW_BLOB_SET));
        if (found.containsKey(DescriptorManifestSchema.ROW_BLOB_SET) && !sharedObjects) {
            throw new ManifestFormatException(
                    location,
                    "column " + DescriptorManifestSchema.ROW_BLOB_SET + " needs the required feature "
                            + BlobFeatures.BLOB_SHARED_OBJECT);
        }
        for (Field want : expected) {
            Field column = found.get(want.getName());
            if (column == null && DescriptorManifestSchema.OPTIONAL_COLUMNS.contains(want.getName())) {
                continue;
            }
            if (!want.equals(column)) {
                throw new ManifestFormatException(
                        location,
                        "schema mismatch at column " + want.getName() + ": expected " + want + ", found "
                                + (column == null ? "no such column" : column));
            }
        }
    }

    private static List<String> requiredFeatures(String location, String value) throws ManifestFormatException {
        if (value == null) {
            throw new ManifestFormatException(location, "missing required_features metadata");
        }
        if (value.isEmpty()) {
            return List.of();
        }
        List<String> features = Arrays.asList(value.split(",", -1));
        for (String feature : features) {
            if (!SUPPORTED_FEATURES.contains(feature)) {
                throw new ManifestFormatException(
                        location,
                        "unknown required feature: expected one of " + SUPPORTED_FEATURES + ", found "
                                + quote(feature));
            }
        }
        return List.copyOf(features);
    }

    private static void closeQuietlyAfter(Exception primary, ArrowFileReader reader, BufferAllocator allocator) {
        try {
            reader.close();
        } catch (IOException | RuntimeException e) {
            primary.addSuppressed(e);
        }
        try {
            allocator.close();
        } catch (RuntimeException e) {
            primary.addSuppressed(e);
        }
    }

    private static String quote(String value) {
        return value == null ? "nothing" : "\"" + value + "\"";
    }

    /** Typed access to one loaded record batch. */
    private final class BatchView {
        private final int rowCount;
        private final VarBinaryVector key;
        private final VarCharVector topic;
        private final IntVector partition;
        private final BigIntVector offset;
        private final StructVector blob;
        private final UInt1Vector kind;
        private final UInt8Vector position;
        private final UInt8Vector size;
        private final UInt4Vector blobId;
        private final VarCharVector blobUri;
        private final LargeVarBinaryVector inlineData;
        private final UInt4Vector crc32c;
        private final MapVector attributes;
        private final VarCharVector attributeNames;
        private final VarBinaryVector attributeValues;
        /** Null in a manifest written before the column existed. */
        private final TimeStampMilliVector timestamp;
        /** The {@code blob_set} column, null unless the manifest requires {@code blob_shared_object}. */
        private final VarCharVector rowBlobSet;

        BatchView(VectorSchemaRoot root) {
            rowCount = root.getRowCount();
            key = (VarBinaryVector) root.getVector(DescriptorManifestSchema.KEY);
            topic = (VarCharVector) root.getVector(DescriptorManifestSchema.SOURCE_TOPIC);
            partition = (IntVector) root.getVector(DescriptorManifestSchema.SOURCE_PARTITION);
            offset = (BigIntVector) root.getVector(DescriptorManifestSchema.SOURCE_OFFSET);
            blob = (StructVector) root.getVector(DescriptorManifestSchema.BLOB);
            kind = blob.getChild(DescriptorManifestSchema.BLOB_KIND, UInt1Vector.class);
            position = blob.getChild(DescriptorManifestSchema.BLOB_POSITION, UInt8Vector.class);
            size = blob.getChild(DescriptorManifestSchema.BLOB_SIZE, UInt8Vector.class);
            blobId = blob.getChild(DescriptorManifestSchema.BLOB_ID, UInt4Vector.class);
            blobUri = blob.getChild(DescriptorManifestSchema.BLOB_URI, VarCharVector.class);
            inlineData = (LargeVarBinaryVector) root.getVector(DescriptorManifestSchema.INLINE_DATA);
            crc32c = (UInt4Vector) root.getVector(DescriptorManifestSchema.CRC32C);
            attributes = (MapVector) root.getVector(DescriptorManifestSchema.ATTRIBUTES);
            StructVector entries = (StructVector) attributes.getDataVector();
            attributeNames = entries.getChild(DescriptorManifestSchema.MAP_KEY, VarCharVector.class);
            attributeValues = entries.getChild(DescriptorManifestSchema.MAP_VALUE, VarBinaryVector.class);
            timestamp = (TimeStampMilliVector) root.getVector(DescriptorManifestSchema.SOURCE_TIMESTAMP);
            rowBlobSet = requiredFeatures.contains(BlobFeatures.BLOB_SHARED_OBJECT)
                    ? (VarCharVector) root.getVector(DescriptorManifestSchema.ROW_BLOB_SET)
                    : null;
        }

        DescriptorRow row(int i, long rowIndex) throws ManifestFormatException {
            requireValue(topic.isNull(i), DescriptorManifestSchema.SOURCE_TOPIC, rowIndex);
            requireValue(partition.isNull(i), DescriptorManifestSchema.SOURCE_PARTITION, rowIndex);
            requireValue(offset.isNull(i), DescriptorManifestSchema.SOURCE_OFFSET, rowIndex);
            requireValue(
                    blob.isNull(i)
                            || kind.isNull(i)
                            || position.isNull(i)
                            || size.isNull(i)
                            || blobId.isNull(i)
                            || blobUri.isNull(i),
                    DescriptorManifestSchema.BLOB,
                    rowIndex);
            requireValue(attributes.isNull(i), DescriptorManifestSchema.ATTRIBUTES, rowIndex);
            try {
                BlobKind blobKind = BlobKind.fromValue(Byte.toUnsignedInt(kind.get(i)));
                BlobDescriptor descriptor = new BlobDescriptor(
                        blobKind,
                        position.get(i),
                        size.get(i),
                        Integer.toUnsignedLong(blobId.get(i)),
                        utf8(blobUri.get(i)));
                boolean ownsSidecar = blobKind == BlobKind.PACKED || blobKind == BlobKind.DEDICATED;
                return new DescriptorRow(
                        key.isNull(i) ? null : key.get(i),
                        utf8(topic.get(i)),
                        partition.get(i),
                        offset.get(i),
                        timestamp == null || timestamp.isNull(i) ? null : timestamp.get(i),
                        descriptor,
                        sidecarBlobSet(i, ownsSidecar),
                        inlineData.isNull(i) ? null : inlineData.get(i),
                        crc32c.isNull(i) ? null : Integer.toUnsignedLong(crc32c.get(i)),
                        attributes(i));
            } catch (IllegalArgumentException e) {
                throw new ManifestFormatException(location, "row " + rowIndex + ": " + e.getMessage(), e);
            }
        }

        private String sidecarBlobSet(int i, boolean ownsSidecar) {
            if (rowBlobSet == null || rowBlobSet.isNull(i)) {
                return ownsSidecar ? blobSet : null;
            }
            String named = utf8(rowBlobSet.get(i));
            if (!ownsSidecar) {
                throw new IllegalArgumentException("blob_set \"" + named + "\" given for a row without a sidecar");
            }
            if (!BlobSets.isValidName(named)) {
                throw new IllegalArgumentException(
                        "bad blob_set: expected " + BlobSets.NAME_REGEX + ", found \"" + named + '"');
            }
            return named;
        }

        private List<DescriptorRow.Attribute> attributes(int i) {
            int start = attributes.getElementStartIndex(i);
            int end = attributes.getElementEndIndex(i);
            List<DescriptorRow.Attribute> list = new ArrayList<>(end - start);
            for (int entry = start; entry < end; entry++) {
                if (attributeNames.isNull(entry)) {
                    throw new IllegalArgumentException("attribute " + (entry - start) + " has a null name");
                }
                list.add(new DescriptorRow.Attribute(
                        utf8(attributeNames.get(entry)),
                        attributeValues.isNull(entry) ? null : attributeValues.get(entry)));
            }
            return list;
        }

        private void requireValue(boolean isNull, String column, long rowIndex) throws ManifestFormatException {
            if (isNull) {
                throw new ManifestFormatException(
                        location, "row " + rowIndex + ": column " + column + " is null, the schema forbids it");
            }
        }
    }

    private static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
