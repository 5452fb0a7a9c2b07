package io.blobingest.lance.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.operation.Append;

class LanceCommitHistoryTest {

    @TempDir
    Path dir;

    @Test
    void theNewestTransactionOfTheJobNamesItsLastCommittedCheckpoint() {
        LanceSettings settings = new LanceSettings(
                dir.resolve("ds.lance").toString(), dir.toUri().toString(), Map.of(), List.of());
        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = LanceDatasets.openOrCreate(settings, settings.datasetUri(), allocator)) {
            assertThat(LanceCommitHistory.lastCommittedCheckpoint(dataset, "job-a"))
                    .isEmpty();

            append(dataset, settings, allocator, new PendingCommit("job-a", 3, settings.datasetUri(), List.of()));
            append(dataset, settings, allocator, new PendingCommit("job-a", 4, settings.datasetUri(), List.of()));
            append(dataset, settings, allocator, new PendingCommit("job-b", 9, settings.datasetUri(), List.of()));

            assertThat(LanceCommitHistory.lastCommittedCheckpoint(dataset, "job-a"))
                    .hasValue(4);
            assertThat(LanceCommitHistory.lastCommittedCheckpoint(dataset, "job-b"))
                    .hasValue(9);
            assertThat(LanceCommitHistory.lastCommittedCheckpoint(dataset, "job-c"))
                    .isEmpty();
        }
    }

    /** Commits one Inline row under {@code ids}' job and checkpoint. */
    private static void append(Dataset dataset, LanceSettings settings, BufferAllocator allocator, PendingCommit ids) {
        DescriptorRow row = new DescriptorRow(
                null, "t", 0, ids.checkpointId(), null, BlobDescriptor.inline(1), null, new byte[] {7}, 0L, List.of());
        List<FragmentMetadata> fragments;
        try (VectorSchemaRoot batch =
                LanceRowSchema.batch(allocator, List.of(), List.of(row), List.of(LanceBlob.bytes(row.inlineData())))) {
            fragments = Fragment.write()
                    .datasetUri(settings.datasetUri())
                    .allocator(allocator)
                    .data(batch)
                    .writeParams(settings.writeParams())
                    .execute();
        }
        dataset.checkoutLatest();
        try (Dataset committed = dataset.newTransactionBuilder()
                .operation(Append.builder().fragments(fragments).build())
                .transactionProperties(LanceCommitHistory.properties(ids))
                .build()
                .commit()) {
            assertThat(committed.countRows()).isPositive();
        }
        dataset.checkoutLatest();
    }
}
