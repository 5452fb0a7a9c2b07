package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.storage.testing.S3ServerExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.zip.CRC32C;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.BlobFile;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Version;

/**
 * The Lance output's dataset as a reader of it sees it, through Lance's Java SDK alone: every row's
 * key, crc32c, attributes and blob (read with {@code takeBlobs}), and the job/checkpoint ids its
 * transactions carry.
 */
final class LanceDatasetRows {

    /** One row; {@code crc32c} null where the dataset holds none (an External reference). */
    record Row(byte[] key, Long crc32c, Long timestamp, Map<String, String> attributes, byte[] blob) {

        /** The value of attribute {@code name}, which the row must have. */
        String attribute(String name) {
            String value = attributes.get(name);
            assertThat(value)
                    .as("attribute %s of a Lance row (%s)", name, attributes)
                    .isNotNull();
            return value;
        }
    }

    private LanceDatasetRows() {}

    /** What a reader passes to Lance to reach {@code s3}'s objects: the server's address and keys. */
    static Map<String, String> storageOptions(S3ServerExtension s3) {
        return Map.of(
                "aws_endpoint",
                s3.endpoint().toString(),
                "allow_http",
                "true",
                "aws_access_key_id",
                S3ServerExtension.ACCESS_KEY,
                "aws_secret_access_key",
                S3ServerExtension.SECRET_KEY,
                "aws_virtual_hosted_style_request",
                "false");
    }

    /**
     * Exactly one row per input in {@code placed} and no other row; each row's blob, read with
     * {@code takeBlobs}, is the input's bytes, with its key, and its crc32c unless it is an
     * External reference (which has none), and its Kafka timestamp where the workload sets one.
     */
    static void assertOneRowPerInput(
            PipelineOutput.Inputs workload, Set<Integer> placed, String uri, Map<String, String> storageOptions)
            throws Exception {
        List<Row> rows = read(uri, storageOptions);
        Map<Integer, Row> bySeq = new HashMap<>();
        for (Row row : rows) {
            int seq = Integer.parseInt(row.attribute("seq"));
            assertThat(bySeq.put(seq, row))
                    .as("input %d appears once in %s", seq, uri)
                    .isNull();
        }
        assertThat(bySeq.keySet()).as("inputs with a row in %s", uri).containsExactlyInAnyOrderElementsOf(placed);
        bySeq.forEach((seq, row) -> {
            assertThat(row.blob()).as("blob of input %d", seq).isEqualTo(workload.bytes(seq));
            assertThat(row.key()).as("key of input %d", seq).isEqualTo(workload.key(seq));
            CRC32C crc = new CRC32C();
            crc.update(row.blob());
            assertThat(row.crc32c())
                    .as("crc32c of input %d", seq)
                    .isEqualTo(workload.kind(seq) == BlobKind.EXTERNAL ? null : crc.getValue());
            if (workload.timestamp(seq) != null) {
                assertThat(row.timestamp()).as("timestamp of input %d", seq).isEqualTo(workload.timestamp(seq));
            }
        });
    }

    static long count(String uri, Map<String, String> storageOptions) {
        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = open(allocator, uri, storageOptions)) {
            return dataset.countRows();
        }
    }

    /** Every row, in the dataset's order; an attribute that repeats keeps its last value. */
    static List<Row> read(String uri, Map<String, String> storageOptions) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = open(allocator, uri, storageOptions)) {
            List<Long> indices =
                    LongStream.range(0, dataset.countRows()).boxed().toList();
            if (indices.isEmpty()) {
                return rows;
            }
            try (ArrowReader reader = dataset.take(indices, List.of("key", "crc32c", "timestamp", "attributes"))) {
                while (reader.loadNextBatch()) {
                    VectorSchemaRoot root = reader.getVectorSchemaRoot();
                    VarBinaryVector key = (VarBinaryVector) root.getVector("key");
                    UInt4Vector crc = (UInt4Vector) root.getVector("crc32c");
                    TimeStampMilliVector timestamp = (TimeStampMilliVector) root.getVector("timestamp");
                    ListVector attributes = (ListVector) root.getVector("attributes");
                    for (int row = 0; row < root.getRowCount(); row++) {
                        rows.add(new Row(
                                key.isNull(row) ? null : key.get(row),
                                crc.isNull(row) ? null : Integer.toUnsignedLong(crc.get(row)),
                                timestamp.isNull(row) ? null : timestamp.get(row),
                                attributes(attributes, row),
                                readBlob(dataset, rows.size())));
                    }
                }
            }
        }
        return rows;
    }

    /** {@code <job id>/<checkpoint id>} of every version made by the Lance committer. */
    static List<String> commits(String uri, Map<String, String> storageOptions) {
        List<String> commits = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = open(allocator, uri, storageOptions)) {
            for (Version version : dataset.listVersions()) {
                try (Dataset at = dataset.checkoutVersion(version.getId())) {
                    at.readTransaction().ifPresent(transaction -> {
                        try (transaction) {
                            Map<String, String> properties =
                                    transaction.transactionProperties().orElse(Map.of());
                            Optional.ofNullable(properties.get("blob-ingest.checkpoint-id"))
                                    .ifPresent(checkpoint ->
                                            commits.add(properties.get("blob-ingest.job-id") + "/" + checkpoint));
                        }
                    });
                }
            }
        }
        return commits;
    }

    private static Dataset open(BufferAllocator allocator, String uri, Map<String, String> storageOptions) {
        return Dataset.open(
                allocator,
                uri,
                new ReadOptions.Builder().setStorageOptions(storageOptions).build());
    }

    /** Lance's {@code takeBlobs} gives no {@code BlobFile} for an empty blob: that reads as no bytes. */
    private static byte[] readBlob(Dataset dataset, long index) throws Exception {
        List<BlobFile> blobs = dataset.takeBlobsByIndices(List.of(index), "blob");
        assertThat(blobs).as("blob files of row %d", index).hasSizeLessThanOrEqualTo(1);
        if (blobs.isEmpty()) {
            return new byte[0];
        }
        try (BlobFile blob = blobs.get(0)) {
            return blob.read();
        }
    }

    private static Map<String, String> attributes(ListVector attributes, int row) {
        StructVector items = (StructVector) attributes.getDataVector();
        VarCharVector names = (VarCharVector) items.getChild("name");
        VarBinaryVector values = (VarBinaryVector) items.getChild("value");
        Map<String, String> byName = new LinkedHashMap<>();
        for (int a = attributes.getElementStartIndex(row); a < attributes.getElementEndIndex(row); a++) {
            byName.put(
                    new String(names.get(a), StandardCharsets.UTF_8),
                    new String(values.get(a), StandardCharsets.UTF_8));
        }
        return byName;
    }
}
