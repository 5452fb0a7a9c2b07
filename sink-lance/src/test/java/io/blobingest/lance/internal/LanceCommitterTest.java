package io.blobingest.lance.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.Version;

/**
 * The Lance committer with real Lance datasets when a commit itself fails: the failure reaches
 * Flink (which fails the task) instead of being logged, the checkpoint's fragments stay in its
 * state, and the restored committer commits them once, under the original job and checkpoint id,
 * however often that state is restored.
 */
class LanceCommitterTest {

    private static final int ROWS = 5;

    @TempDir
    Path dir;

    @Test
    void aFailedCommitFailsTheTaskAndIsCommittedOnceFromTheRestoredState() throws Exception {
        Path dataset = dir.resolve("robots.lance");
        LanceSettings settings = new LanceSettings(
                dataset.toString(), dir.resolve("base").toUri().toString(), Map.of(), List.of());
        List<byte[]> fragments = writeFragments(settings, 1);

        OperatorSubtaskState snapshot;
        try (OneInputStreamOperatorTestHarness<byte[], Void> committer = harness(settings)) {
            committer.initializeEmptyState();
            committer.open();
            for (byte[] fragment : fragments) {
                committer.processElement(new StreamRecord<>(fragment));
            }
            snapshot = committer.snapshot(1, 1);
            // The dataset unreachable at commit time, as an S3 outage would make it.
            Path away = Files.move(dataset, dir.resolve("away.lance"));
            assertThatThrownBy(() -> committer.notifyOfCompletedCheckpoint(1))
                    .as("the failed commit of checkpoint 1 fails the task")
                    .hasMessageContaining("cannot commit checkpoints [1] to Lance dataset " + dataset);
            Files.move(away, dataset);
        }
        assertThat(rows(settings)).as("rows before the restore").isZero();

        for (int restore = 1; restore <= 2; restore++) {
            try (OneInputStreamOperatorTestHarness<byte[], Void> restored = harness(settings)) {
                restored.initializeState(snapshot);
                restored.open();
            }
            assertThat(rows(settings)).as("rows after restore %d", restore).isEqualTo(ROWS);
            assertThat(checkpointCommits(settings))
                    .as("versions committed for a checkpoint")
                    .containsExactly("1");
        }
    }

    /**
     * With {@code {topic}} in the URI each topic's rows are one dataset's; a commit that fails on the
     * second dataset leaves the first committed, and the restore commits each dataset's rows once.
     */
    @Test
    void eachTopicsRowsGoToItsDatasetAndAFailureBetweenTwoDatasetsCommitsEachOnce() throws Exception {
        LanceSettings settings = new LanceSettings(
                dir.resolve("{topic}.lance").toString(),
                dir.resolve("base").toUri().toString(),
                Map.of(),
                List.of());
        Path lidar = dir.resolve("lidar.lance");
        List<byte[]> fragments = new ArrayList<>();
        try (OneInputStreamOperatorTestHarness<DescriptorRow, byte[]> writer =
                new OneInputStreamOperatorTestHarness<>(new LanceFragmentWriter(settings, settings.blobBase()))) {
            writer.open();
            for (int i = 0; i < 5; i++) {
                writer.processElement(new StreamRecord<>(row(i < 3 ? "cam-front" : "lidar", i)));
            }
            writer.prepareSnapshotPreBarrier(1);
            writer.extractOutputValues().forEach(fragments::add);
        }

        OperatorSubtaskState snapshot;
        try (OneInputStreamOperatorTestHarness<byte[], Void> committer = harness(settings)) {
            committer.initializeEmptyState();
            committer.open();
            for (byte[] fragment : fragments) {
                committer.processElement(new StreamRecord<>(fragment));
            }
            snapshot = committer.snapshot(1, 1);
            Path away = Files.move(lidar, dir.resolve("away.lance"));
            assertThatThrownBy(() -> committer.notifyOfCompletedCheckpoint(1))
                    .hasMessageContaining("cannot commit checkpoints [1] to Lance dataset " + lidar);
            Files.move(away, lidar);
        }
        assertThat(rows(settings, "cam-front"))
                .as("cam-front, committed before the failure")
                .isEqualTo(3);
        assertThat(rows(settings, "lidar")).as("lidar before the restore").isZero();

        for (int restore = 1; restore <= 2; restore++) {
            try (OneInputStreamOperatorTestHarness<byte[], Void> restored = harness(settings)) {
                restored.initializeState(snapshot);
                restored.open();
            }
            assertThat(rows(settings, "cam-front"))
                    .as("cam-front after restore %d", restore)
                    .isEqualTo(3);
            assertThat(rows(settings, "lidar"))
                    .as("lidar after restore %d", restore)
                    .isEqualTo(2);
        }
    }

    private static DescriptorRow row(String topic, long offset) {
        byte[] bytes = ("packet " + offset).getBytes(StandardCharsets.UTF_8);
        return new DescriptorRow(
                null, topic, 0, offset, null, BlobDescriptor.inline(bytes.length), null, bytes, null, List.of());
    }

    private static long rows(LanceSettings settings, String topic) {
        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = LanceDatasets.open(settings, settings.datasetUri(topic), allocator)) {
            return dataset.countRows();
        }
    }

    private static OneInputStreamOperatorTestHarness<byte[], Void> harness(LanceSettings settings) throws Exception {
        return new OneInputStreamOperatorTestHarness<>(new LanceCommitter(settings));
    }

    /** Inline rows through the real fragment writer, as it hands them to the committer before a barrier. */
    private static List<byte[]> writeFragments(LanceSettings settings, long checkpointId) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                Dataset ignored = LanceDatasets.openOrCreate(settings, settings.datasetUri(), allocator);
                OneInputStreamOperatorTestHarness<DescriptorRow, byte[]> writer =
                        new OneInputStreamOperatorTestHarness<>(
                                new LanceFragmentWriter(settings, settings.blobBase()))) {
            writer.open();
            for (int i = 0; i < ROWS; i++) {
                byte[] bytes = ("packet " + i).getBytes(StandardCharsets.UTF_8);
                writer.processElement(new StreamRecord<>(new DescriptorRow(
                        null, "blobs", 0, i, null, BlobDescriptor.inline(bytes.length), null, bytes, null, List.of())));
            }
            writer.prepareSnapshotPreBarrier(checkpointId);
            List<byte[]> fragments = new ArrayList<>();
            writer.extractOutputValues().forEach(fragments::add);
            assertThat(fragments)
                    .as("fragment metadata handed to the committer")
                    .isNotEmpty();
            return fragments;
        }
    }

    private static long rows(LanceSettings settings) {
        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = LanceDatasets.open(settings, settings.datasetUri(), allocator)) {
            return dataset.countRows();
        }
    }

    private static List<String> checkpointCommits(LanceSettings settings) {
        List<String> checkpoints = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = LanceDatasets.open(settings, settings.datasetUri(), allocator)) {
            for (Version version : dataset.listVersions()) {
                try (Dataset at = dataset.checkoutVersion(version.getId())) {
                    at.readTransaction().ifPresent(transaction -> {
                        try (transaction) {
                            transaction
                                    .transactionProperties()
                                    .map(properties -> properties.get(LanceCommitHistory.CHECKPOINT_ID))
                                    .ifPresent(checkpoints::add);
                        }
                    });
                }
            }
        }
        return checkpoints;
    }
}
