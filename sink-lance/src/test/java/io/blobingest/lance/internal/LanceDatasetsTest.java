package io.blobingest.lance.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.operation.Append;

/**
 * A dataset an earlier version created, with fewer columns: the committer adds the new ones at its
 * end when it starts, its rows read null there, and a dataset whose columns differ otherwise is
 * refused in one line, since Lance would store a batch's columns by position.
 */
class LanceDatasetsTest {

    private static final long STAMP = 1_765_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void theCommitterAddsTheTimestampColumnToAnEarlierDatasetWhoseRowsReadNullThere() throws Exception {
        LanceSettings settings = settings();
        Schema earlier = withoutLast(LanceRowSchema.SCHEMA);
        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = createWithOneRow(settings, allocator, earlier)) {
            assertThat(dataset.getSchema().findField(LanceRowSchema.BLOB)).isNotNull();
        }

        try (OneInputStreamOperatorTestHarness<byte[], Void> committer =
                new OneInputStreamOperatorTestHarness<>(new LanceCommitter(settings))) {
            committer.initializeEmptyState();
            committer.open();
            committer.processElement(new StreamRecord<>(writeFragment(settings, row(2, STAMP + 2))));
            committer.snapshot(1, 1);
            committer.notifyOfCompletedCheckpoint(1);
        }

        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = LanceDatasets.open(settings, settings.datasetUri(), allocator)) {
            assertThat(dataset.getSchema().getFields())
                    .extracting(Field::getName)
                    .isEqualTo(LanceRowSchema.SCHEMA.getFields().stream()
                            .map(Field::getName)
                            .toList());
            assertThat(dataset.countRows()).isEqualTo(2);
            assertThat(dataset.countRows("`timestamp` IS NULL"))
                    .as("the earlier row")
                    .isEqualTo(1);
            assertThat(dataset.countRows("`timestamp` = to_timestamp_millis(" + (STAMP + 2) + ")"))
                    .as("the row written now")
                    .isEqualTo(1);
        }
    }

    @Test
    void aDatasetWhoseColumnsAreInAnotherOrderIsRefusedInOneLine() {
        LanceSettings settings = settings();
        List<Field> swapped = new ArrayList<>(LanceRowSchema.SCHEMA.getFields());
        swapped.set(1, LanceRowSchema.SCHEMA.getFields().get(2));
        swapped.set(2, LanceRowSchema.SCHEMA.getFields().get(1));
        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset =
                        Dataset.create(allocator, settings.datasetUri(), new Schema(swapped), settings.writeParams())) {
            assertThatThrownBy(() ->
                            LanceDatasets.addMissingColumns(dataset, LanceRowSchema.SCHEMA, settings.datasetUri()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("Lance dataset " + settings.datasetUri() + " has columns [key Binary, "
                            + "source_partition Int(32, true), source_topic Utf8")
                    .hasMessageContaining("a dataset only takes new columns at its end")
                    .hasMessageNotContaining("\n");
        }
    }

    @Test
    void theFragmentWriterAddsTheColumnsADatasetLacksBeforeItsFirstFragment() throws Exception {
        LanceSettings settings = settings();
        try (BufferAllocator allocator = new RootAllocator();
                Dataset ignored = createWithOneRow(settings, allocator, withoutLast(LanceRowSchema.SCHEMA))) {
            writeFragment(settings, row(2, STAMP));
        }

        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = LanceDatasets.open(settings, settings.datasetUri(), allocator)) {
            assertThat(dataset.getSchema().getFields())
                    .extracting(Field::getName)
                    .endsWith(LanceRowSchema.BLOB, LanceRowSchema.TIMESTAMP);
        }
    }

    private LanceSettings settings() {
        return new LanceSettings(
                dir.resolve("robots.lance").toString(),
                dir.resolve("base").toUri().toString(),
                Map.of(),
                List.of());
    }

    private static Schema withoutLast(Schema schema) {
        List<Field> fields = schema.getFields();
        return new Schema(fields.subList(0, fields.size() - 1));
    }

    private static DescriptorRow row(long offset, Long timestamp) {
        byte[] bytes = ("packet " + offset).getBytes(StandardCharsets.UTF_8);
        return new DescriptorRow(
                null, "blobs", 0, offset, timestamp, BlobDescriptor.inline(bytes.length), null, bytes, null, List.of());
    }

    /** A dataset of {@code schema}, one row written with the leading columns of today's batch. */
    private static Dataset createWithOneRow(LanceSettings settings, BufferAllocator allocator, Schema schema) {
        try (Dataset created = Dataset.create(allocator, settings.datasetUri(), schema, settings.writeParams());
                VectorSchemaRoot full = LanceRowSchema.batch(
                        allocator,
                        List.of(),
                        List.of(row(1, null)),
                        List.of(LanceBlob.bytes(row(1, null).inlineData())))) {
            List<FieldVector> vectors =
                    full.getFieldVectors().subList(0, schema.getFields().size());
            VectorSchemaRoot batch = new VectorSchemaRoot(schema, vectors, full.getRowCount());
            List<FragmentMetadata> fragments = Fragment.write()
                    .datasetUri(settings.datasetUri())
                    .allocator(allocator)
                    .data(batch)
                    .writeParams(settings.writeParams())
                    .execute();
            return created.newTransactionBuilder()
                    .operation(Append.builder().fragments(fragments).build())
                    .build()
                    .commit();
        }
    }

    private static byte[] writeFragment(LanceSettings settings, DescriptorRow row) throws Exception {
        try (OneInputStreamOperatorTestHarness<DescriptorRow, byte[]> writer =
                new OneInputStreamOperatorTestHarness<>(new LanceFragmentWriter(settings, settings.blobBase()))) {
            writer.open();
            writer.processElement(new StreamRecord<>(row));
            writer.prepareSnapshotPreBarrier(1);
            return writer.extractOutputValues().get(0);
        }
    }
}
