package io.blobingest.sink.manifest;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobFeatures;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
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
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Writes the descriptor manifest of one blob set as an Arrow IPC file (spec.md section 5) into an
 * {@link OutputStream}, in record batches of bounded size. The stream is flushed but not closed: a
 * {@code RecoverableFsDataOutputStream} must be closed for commit by its owner.
 */
@PublicEvolving
public final class DescriptorManifestWriter {

    static final int MAX_ROWS_PER_BATCH = 4096;
    /** Bounds a batch's inline bytes so that many large Inline blobs do not make one huge batch. */
    static final long MAX_INLINE_BYTES_PER_BATCH = 16L * 1024 * 1024;

    private DescriptorManifestWriter() {}

    /**
     * Writes the manifest of {@code blobSet} holding {@code rows}, in their order.
     *
     * A Packed or Dedicated row that names another blob set (a shared object) makes the manifest
     * require {@code blob_shared_object} and carry the {@code blob_set} column ({@link
     * DescriptorManifestSchema#SHARED_FIELDS}); without such rows the file is exactly spec.md section
     * 5's.
     *
     * @throws IllegalArgumentException if {@code blobSet} is not a valid name
     */
    public static void write(String blobSet, List<DescriptorRow> rows, OutputStream out) throws IOException {
        BlobSets.requireValidName(blobSet);
        Set<String> requiredFeatures = new TreeSet<>();
        for (DescriptorRow row : rows) {
            requiredFeatures.addAll(row.requiredFeatures());
            if (row.blobSet() != null && !row.blobSet().equals(blobSet)) {
                requiredFeatures.add(BlobFeatures.BLOB_SHARED_OBJECT);
            }
        }
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root =
                        VectorSchemaRoot.create(DescriptorManifestSchema.schema(blobSet, requiredFeatures), allocator);
                ArrowFileWriter writer =
                        new ArrowFileWriter(root, null, Channels.newChannel(new UnclosableOutputStream(out)))) {
            writer.start();
            int from = 0;
            while (from < rows.size()) {
                int to = batchEnd(rows, from);
                fill(root, rows.subList(from, to), blobSet);
                writer.writeBatch();
                from = to;
            }
            writer.end();
        }
        out.flush();
    }

    private static int batchEnd(List<DescriptorRow> rows, int from) {
        int to = from;
        long inlineBytes = 0;
        while (to < rows.size() && to - from < MAX_ROWS_PER_BATCH) {
            byte[] inline = rows.get(to).inlineData();
            long next = inlineBytes + (inline == null ? 0 : inline.length);
            if (to > from && next > MAX_INLINE_BYTES_PER_BATCH) {
                break;
            }
            inlineBytes = next;
            to++;
        }
        return to;
    }

    private static void fill(VectorSchemaRoot root, List<DescriptorRow> batch, String blobSet) {
        root.allocateNew();
        VarBinaryVector key = (VarBinaryVector) root.getVector(DescriptorManifestSchema.KEY);
        VarCharVector topic = (VarCharVector) root.getVector(DescriptorManifestSchema.SOURCE_TOPIC);
        IntVector partition = (IntVector) root.getVector(DescriptorManifestSchema.SOURCE_PARTITION);
        BigIntVector offset = (BigIntVector) root.getVector(DescriptorManifestSchema.SOURCE_OFFSET);
        StructVector blob = (StructVector) root.getVector(DescriptorManifestSchema.BLOB);
        UInt1Vector kind = blob.getChild(DescriptorManifestSchema.BLOB_KIND, UInt1Vector.class);
        UInt8Vector position = blob.getChild(DescriptorManifestSchema.BLOB_POSITION, UInt8Vector.class);
        UInt8Vector size = blob.getChild(DescriptorManifestSchema.BLOB_SIZE, UInt8Vector.class);
        UInt4Vector blobId = blob.getChild(DescriptorManifestSchema.BLOB_ID, UInt4Vector.class);
        VarCharVector blobUri = blob.getChild(DescriptorManifestSchema.BLOB_URI, VarCharVector.class);
        LargeVarBinaryVector inlineData = (LargeVarBinaryVector) root.getVector(DescriptorManifestSchema.INLINE_DATA);
        UInt4Vector crc32c = (UInt4Vector) root.getVector(DescriptorManifestSchema.CRC32C);
        MapVector attributes = (MapVector) root.getVector(DescriptorManifestSchema.ATTRIBUTES);
        StructVector entries = (StructVector) attributes.getDataVector();
        VarCharVector attributeNames = entries.getChild(DescriptorManifestSchema.MAP_KEY, VarCharVector.class);
        VarBinaryVector attributeValues = entries.getChild(DescriptorManifestSchema.MAP_VALUE, VarBinaryVector.class);
        TimeStampMilliVector timestamp =
                (TimeStampMilliVector) root.getVector(DescriptorManifestSchema.SOURCE_TIMESTAMP);
        VarCharVector rowBlobSet = (VarCharVector) root.getVector(DescriptorManifestSchema.ROW_BLOB_SET);

        for (int i = 0; i < batch.size(); i++) {
            DescriptorRow row = batch.get(i);
            if (row.key() == null) {
                key.setNull(i);
            } else {
                key.setSafe(i, row.key());
            }
            topic.setSafe(i, utf8(row.sourceTopic()));
            partition.setSafe(i, row.sourcePartition());
            offset.setSafe(i, row.sourceOffset());

            BlobDescriptor descriptor = row.blob();
            kind.setSafe(i, descriptor.kind().value());
            position.setSafe(i, descriptor.position());
            size.setSafe(i, descriptor.size());
            blobId.setSafe(i, (int) descriptor.blobId());
            blobUri.setSafe(i, utf8(descriptor.blobUri()));
            blob.setIndexDefined(i);

            if (descriptor.kind() == BlobKind.INLINE) {
                inlineData.setSafe(i, row.inlineData());
            } else {
                inlineData.setNull(i);
            }
            if (row.crc32c() == null) {
                crc32c.setNull(i);
            } else {
                crc32c.setSafe(i, row.crc32c().intValue());
            }

            int entry = attributes.startNewValue(i);
            for (DescriptorRow.Attribute attribute : row.attributes()) {
                attributeNames.setSafe(entry, utf8(attribute.name()));
                if (attribute.value() == null) {
                    attributeValues.setNull(entry);
                } else {
                    attributeValues.setSafe(entry, attribute.value());
                }
                entries.setIndexDefined(entry);
                entry++;
            }
            attributes.endValue(i, row.attributes().size());
            if (row.sourceTimestamp() == null) {
                timestamp.setNull(i);
            } else {
                timestamp.setSafe(i, row.sourceTimestamp());
            }
            if (rowBlobSet != null) {
                if (row.blobSet() == null || row.blobSet().equals(blobSet)) {
                    rowBlobSet.setNull(i);
                } else {
                    rowBlobSet.setSafe(i, utf8(row.blobSet()));
                }
            }
        }
        root.setRowCount(batch.size());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Arrow closes its channel when done; the caller's stream must stay open for its commit. */
    private static final class UnclosableOutputStream extends FilterOutputStream {
        UnclosableOutputStream(OutputStream out) {
            super(Objects.requireNonNull(out, "out"));
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            out.flush();
        }
    }
}
