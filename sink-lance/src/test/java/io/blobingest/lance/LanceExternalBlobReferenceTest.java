package io.blobingest.lance;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.pack.RawPackFooter;
import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.objectlayer.pack.RawPackReader;
import io.blobingest.objectlayer.pack.RawPackWriter;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.BlobFile;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.WriteParams;
import org.lance.operation.Append;

/**
 * What the Lance output relies on, shown with Lance 7.0.0 itself: a Blob v2 input with {@code uri},
 * {@code position} and {@code size} under a registered base is stored as a reference, and {@code
 * takeBlobs} reads exactly that range of our Raw Pack (the entry's absolute offset from the pack's
 * entry table) or our Dedicated sidecar; nothing of those bytes is copied into the dataset. Inline
 * bytes ({@code data}) Lance stores itself.
 */
class LanceExternalBlobReferenceTest {

    @TempDir
    Path dir;

    @Test
    void takeBlobsReadsOurPackEntriesAndSidecarInPlaceWithoutCopyingThem() throws Exception {
        Path base = dir.resolve("base");
        Path set = Files.createDirectories(base.resolve("set-1"));
        Path pack = set.resolve(BlobSets.sidecarFileName(1));
        byte[] first = payload(1, 1 << 20);
        byte[] second = payload(2, (1 << 20) + 7);
        try (OutputStream out = Files.newOutputStream(pack)) {
            RawPackWriter writer = RawPackWriter.create(out, new RawPackMetadata("set-1", 1, "test"));
            writer.append(first);
            writer.append(second);
            writer.finish();
        }
        Path dedicated = set.resolve(BlobSets.sidecarFileName(2));
        byte[] third = payload(3, 2 << 20);
        Files.write(dedicated, third);
        RawPackFooter footer;
        try (ReadableObject object = new LocalBlobStorage().open(pack.toUri())) {
            footer = RawPackReader.withAllFeatures().readFooter(object);
        }

        String datasetUri = dir.resolve("ds.lance").toString();
        try (BufferAllocator allocator = new RootAllocator()) {
            Field blob = new Field(
                    "blob",
                    new FieldType(
                            true, ArrowType.Struct.INSTANCE, null, Map.of("ARROW:extension:name", "lance.blob.v2")),
                    List.of(
                            new Field("data", FieldType.nullable(ArrowType.LargeBinary.INSTANCE), null),
                            new Field("uri", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
                            new Field("position", FieldType.nullable(new ArrowType.Int(64, false)), null),
                            new Field("size", FieldType.nullable(new ArrowType.Int(64, false)), null)));
            Schema schema =
                    new Schema(List.of(new Field("key", FieldType.nullable(ArrowType.Utf8.INSTANCE), null), blob));
            WriteParams params = new WriteParams.Builder()
                    .withDataStorageVersion("2.2")
                    .withInitialBases(List.of(new org.lance.BasePath(
                            1, Optional.of("blobs"), base.toUri().toString(), false)))
                    .build();
            try (Dataset ds = Dataset.create(allocator, datasetUri, schema, params)) {
                assertThat(ds.getLanceFileFormatVersion()).isEqualTo("2.2");
            }
            List<FragmentMetadata> fragments;
            try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
                VarCharVector key = (VarCharVector) root.getVector("key");
                StructVector struct = (StructVector) root.getVector("blob");
                LargeVarBinaryVector data = (LargeVarBinaryVector) struct.getChild("data");
                VarCharVector uri = (VarCharVector) struct.getChild("uri");
                UInt8Vector position = (UInt8Vector) struct.getChild("position");
                UInt8Vector size = (UInt8Vector) struct.getChild("size");
                root.allocateNew();
                String[] uris = {
                    pack.toUri().toString(),
                    pack.toUri().toString(),
                    dedicated.toUri().toString(),
                    null
                };
                long[] positions = {footer.entryOffset(0), footer.entryOffset(1), 0, 0};
                long[] sizes = {first.length, second.length, third.length, 0};
                for (int i = 0; i < 4; i++) {
                    key.setSafe(i, ("k" + i).getBytes(StandardCharsets.UTF_8));
                    struct.setIndexDefined(i);
                    if (uris[i] == null) {
                        data.setSafe(i, "inline!".getBytes(StandardCharsets.UTF_8));
                        uri.setNull(i);
                        position.setNull(i);
                        size.setNull(i);
                    } else {
                        data.setNull(i);
                        uri.setSafe(i, uris[i].getBytes(StandardCharsets.UTF_8));
                        position.setSafe(i, positions[i]);
                        size.setSafe(i, sizes[i]);
                    }
                }
                root.setRowCount(4);
                fragments = Fragment.write()
                        .datasetUri(datasetUri)
                        .allocator(allocator)
                        .data(root)
                        .writeParams(params)
                        .execute();
            }
            try (Dataset ds = Dataset.open(datasetUri, allocator)) {
                try (Dataset committed = ds.newTransactionBuilder()
                        .operation(Append.builder().fragments(fragments).build())
                        .transactionProperties(Map.of("blob-ingest.job-id", "j", "blob-ingest.checkpoint-id", "7"))
                        .build()
                        .commit()) {
                    assertThat(committed.version()).isEqualTo(2);
                }
            }
            try (Dataset ds = Dataset.open(datasetUri, allocator)) {
                assertThat(ds.countRows()).isEqualTo(4);
                assertThat(ds.readTransaction().flatMap(org.lance.Transaction::transactionProperties))
                        .contains(Map.of("blob-ingest.job-id", "j", "blob-ingest.checkpoint-id", "7"));
                List<BlobFile> blobs = ds.takeBlobsByIndices(List.of(0L, 1L, 2L, 3L), "blob");
                List<byte[]> read = new ArrayList<>();
                for (BlobFile b : blobs) {
                    read.add(b.read());
                    b.close();
                }
                assertThat(read.get(0)).isEqualTo(first);
                assertThat(read.get(1)).isEqualTo(second);
                assertThat(read.get(2)).isEqualTo(third);
                assertThat(new String(read.get(3), StandardCharsets.UTF_8)).isEqualTo("inline!");
            }
            long datasetBytes;
            try (Stream<Path> files = Files.walk(Path.of(datasetUri))) {
                datasetBytes = files.filter(Files::isRegularFile)
                        .mapToLong(p -> p.toFile().length())
                        .sum();
            }
            assertThat(datasetBytes)
                    .as("dataset size: references only, no copy of the 4 MiB referenced")
                    .isLessThan(64 * 1024);
        }
    }

    private static byte[] payload(long seed, int size) {
        byte[] bytes = new byte[size];
        new java.util.SplittableRandom(seed).nextBytes(bytes);
        return bytes;
    }
}
