package io.blobingest.cli.demo;

import io.blobingest.objectlayer.DescriptorRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.BlobFile;
import org.lance.Dataset;

/**
 * {@code demo --lance}: reads the job's Lance dataset with Lance's Java SDK and checks it against
 * the workload: one row per record that got a descriptor, each blob read through Lance's {@code
 * takeBlobs} equal to the record's bytes, crc32c equal.
 *
 * @param rows rows in the dataset
 * @param blobsMatched rows whose blob, key and crc32c matched their record
 * @param problems the first problems found, for people
 * @param problemCount all problems found
 */
public record LanceReadBack(long rows, int blobsMatched, List<String> problems, int problemCount) {

    private static final int MAX_PROBLEMS = 20;

    public boolean everyBlobMatched() {
        return problemCount == 0;
    }

    public static LanceReadBack check(DemoWorkload workload, String datasetUri) throws IOException {
        Checker checker = new Checker(workload);
        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = Dataset.open(datasetUri, allocator)) {
            long rows = dataset.countRows();
            List<Long> indices = new ArrayList<>();
            for (long i = 0; i < rows; i++) {
                indices.add(i);
            }
            int row = 0;
            try (ArrowReader reader = dataset.take(indices, List.of("key", "crc32c", "attributes"))) {
                while (reader.loadNextBatch()) {
                    VectorSchemaRoot batch = reader.getVectorSchemaRoot();
                    for (int i = 0; i < batch.getRowCount(); i++, row++) {
                        checker.check(row, batch, i, readBlob(dataset, row));
                    }
                }
            }
            checker.checkEveryPlacedRecordSeen();
            return new LanceReadBack(rows, checker.matched, List.copyOf(checker.problems), checker.problemCount);
        }
    }

    /** Lance gives no {@code BlobFile} for an empty blob. */
    private static byte[] readBlob(Dataset dataset, long row) throws IOException {
        List<BlobFile> blobs = dataset.takeBlobsByIndices(List.of(row), "blob");
        if (blobs.isEmpty()) {
            return new byte[0];
        }
        try (BlobFile blob = blobs.get(0)) {
            return blob.read();
        }
    }

    private static final class Checker {

        private final DemoWorkload workload;
        private final BitSet seen = new BitSet();
        private final List<String> problems = new ArrayList<>();
        private int problemCount;
        private int matched;

        Checker(DemoWorkload workload) {
            this.workload = workload;
        }

        void check(int row, VectorSchemaRoot batch, int i, byte[] blob) {
            int index = DemoWorkload.indexOf(attributes((ListVector) batch.getVector("attributes"), i));
            if (index < 0 || index >= workload.count()) {
                problem("Lance row " + row + " names no record of this demo");
                return;
            }
            String record = "record " + index + " (" + workload.kind(index).label() + ")";
            if (seen.get(index)) {
                problem(record + ": more than one Lance row");
                return;
            }
            seen.set(index);
            if (workload.kind(index) == DemoRecordKind.BAD) {
                problem(record + ": a bad record has a Lance row");
                return;
            }
            byte[] expected = workload.expectedBytes(index);
            VarBinaryVector key = (VarBinaryVector) batch.getVector("key");
            UInt4Vector crc = (UInt4Vector) batch.getVector("crc32c");
            Long foundCrc = crc.isNull(i) ? null : Integer.toUnsignedLong(crc.get(i));
            Long expectedCrc = workload.kind(index) == DemoRecordKind.EXTERNAL_REFERENCE ? null : crc32c(expected);
            if (!Arrays.equals(blob, expected)) {
                problem(record + ": Lance's takeBlobs read " + blob.length + " bytes that differ from the "
                        + expected.length + " bytes of the record");
            } else if (!Objects.equals(foundCrc, expectedCrc)) {
                problem(record + ": Lance row crc32c " + foundCrc + ", expected " + expectedCrc);
            } else if (!Arrays.equals(key.isNull(i) ? null : key.get(i), workload.key(index))) {
                problem(record + ": the Lance row's key differs from the record's");
            } else {
                matched++;
            }
        }

        void checkEveryPlacedRecordSeen() {
            for (int index = 0; index < workload.count(); index++) {
                if (workload.kind(index) != DemoRecordKind.BAD && !seen.get(index)) {
                    problem("record " + index + " (" + workload.kind(index).label() + "): no Lance row");
                }
            }
        }

        private static List<DescriptorRow.Attribute> attributes(ListVector list, int i) {
            StructVector items = (StructVector) list.getDataVector();
            VarCharVector names = (VarCharVector) items.getChild("name");
            VarBinaryVector values = (VarBinaryVector) items.getChild("value");
            List<DescriptorRow.Attribute> attributes = new ArrayList<>();
            for (int a = list.getElementStartIndex(i); a < list.getElementEndIndex(i); a++) {
                attributes.add(new DescriptorRow.Attribute(
                        new String(names.get(a), StandardCharsets.UTF_8), values.isNull(a) ? null : values.get(a)));
            }
            return attributes;
        }

        private static long crc32c(byte[] bytes) {
            CRC32C crc = new CRC32C();
            crc.update(bytes);
            return crc.getValue();
        }

        private void problem(String problem) {
            problemCount++;
            if (problems.size() < MAX_PROBLEMS) {
                problems.add(problem);
            }
        }
    }
}
