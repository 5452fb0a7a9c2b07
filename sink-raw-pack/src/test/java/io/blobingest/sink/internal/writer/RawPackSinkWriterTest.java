package io.blobingest.sink.internal.writer;

import static io.blobingest.sink.internal.writer.WriterHarness.commit;
import static io.blobingest.sink.internal.writer.WriterHarness.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import io.blobingest.sink.RollPolicy;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.sink.TestBlobs;
import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.sink.internal.state.BlobSetWriterState;
import io.blobingest.sink.internal.state.WriterStateSerializer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RawPackSinkWriterTest {

    private static final long MIB = 1024 * 1024;
    private static final int ENTRY = 70 * 1024;
    /** Three 70 KiB entries and a footer fit; a fourth does not. */
    private static final long THREE_ENTRY_TARGET = 256 * 1024;

    @TempDir
    Path base;

    @Test
    void onCheckpointCommitsOneBlobSetPerCheckpointAndNothingIsVisibleBefore() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        try (RawPackSinkWriter writer = harness.writer()) {
            write(writer, LongStream.range(0, 400).toArray());

            Collection<BlobSetCommittable> committables = writer.prepareCommit();

            assertThat(committables).singleElement().satisfies(set -> {
                assertThat(set.rowCount()).isEqualTo(400);
                assertThat(set.sharingIndexEntries())
                        .as("sharing is off")
                        .isEqualTo(BlobSetCommittable.NO_SHARING_INDEX);
            });
            assertThat(writer.snapshotState(1)).isEmpty();
            assertThat(StoredBlobs.visibleFiles(base)).isEmpty();
            assertThat(writer.prepareCommit()).as("a checkpoint without input").isEmpty();

            commit(committables);
        }
        StoredBlobs stored = new StoredBlobs(base);
        Map<String, List<DescriptorRow>> manifests = stored.committedManifests();
        List<DescriptorRow> rows = manifests.values().iterator().next();
        assertThat(rows)
                .extracting(DescriptorRow::sourceOffset)
                .containsExactlyElementsOf(LongStream.range(0, 400).boxed().toList());
        for (DescriptorRow row : rows) {
            TestBlobs.assertDescribesItsBlob(row, stored);
        }
        stored.verifyPacks(manifests.keySet().iterator().next(), rows);
        stored.assertOnlyCommittedFilesAreVisible(manifests);
        assertThat(StoredBlobs.hiddenFiles(base))
                .as("every in-progress file was committed")
                .isEmpty();
    }

    @Test
    void packRollsBeforeAnEntryWouldPassTheTargetSize() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, THREE_ENTRY_TARGET);
        try (RawPackSinkWriter writer = harness.writer()) {
            for (int i = 0; i < 20; i++) {
                writer.write(blob(i, Placement.PACKED, ENTRY), null);
            }
            BlobSetCommittable set = writer.prepareCommit().iterator().next();

            assertThat(set.sidecars())
                    .extracting(PendingSidecar::sidecarId)
                    .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
            assertThat(set.sidecars()).allSatisfy(pack -> {
                assertThat(pack.kind()).isEqualTo(SidecarKind.RAW_PACK);
                assertThat(pack.length()).isLessThanOrEqualTo(THREE_ENTRY_TARGET);
            });
            commit(List.of(set));
        }
        List<DescriptorRow> rows =
                new StoredBlobs(base).committedManifests().values().iterator().next();
        assertThat(rows)
                .extracting(r -> r.blob().blobId())
                .containsExactly(1L, 1L, 1L, 2L, 2L, 2L, 3L, 3L, 3L, 4L, 4L, 4L, 5L, 5L, 5L, 6L, 6L, 6L, 7L, 7L);
        assertThat(rows)
                .extracting(r -> RawPackFormat.entryIndex(r.blob().position()))
                .startsWith(0L, 1L, 2L, 0L);
        assertResolvesToGeneratedBytes(rows);
    }

    @Test
    void entryLargerThanTheTargetGetsAPackOfItsOwn() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 64 * 1024);
        try (RawPackSinkWriter writer = harness.writer()) {
            writer.write(blob(0, Placement.PACKED, 100 * 1024), null);
            writer.write(blob(1, Placement.PACKED, 100 * 1024), null);
            writer.write(blob(2, Placement.PACKED, 10), null);
            BlobSetCommittable set = writer.prepareCommit().iterator().next();
            assertThat(set.sidecars()).hasSize(3);
            commit(List.of(set));
        }
        assertResolvesToGeneratedBytes(
                new StoredBlobs(base).committedManifests().values().iterator().next());
    }

    @Test
    void dedicatedBlobsAndPacksShareOneSidecarIdSequence() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        try (RawPackSinkWriter writer = harness.writer()) {
            writer.write(blob(0, Placement.DEDICATED, 1000), null);
            writer.write(blob(1, Placement.PACKED, 1000), null);
            writer.write(blob(2, Placement.DEDICATED, 0), null);
            writer.write(blob(3, Placement.PACKED, 1000), null);
            BlobSetCommittable set = writer.prepareCommit().iterator().next();
            assertThat(set.sidecars())
                    .extracting(PendingSidecar::sidecarId, PendingSidecar::kind)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(1L, SidecarKind.DEDICATED),
                            org.assertj.core.groups.Tuple.tuple(3L, SidecarKind.DEDICATED),
                            org.assertj.core.groups.Tuple.tuple(2L, SidecarKind.RAW_PACK));
            commit(List.of(set));
        }
        List<DescriptorRow> rows =
                new StoredBlobs(base).committedManifests().values().iterator().next();
        assertThat(rows).extracting(r -> r.blob().blobId()).containsExactly(1L, 2L, 3L, 2L);
        assertResolvesToGeneratedBytes(rows);
    }

    @Test
    void sizeOrTimeKeepsTheSetOpenAcrossCheckpointsUntilThePackWouldOverflow() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.SIZE_OR_TIME, THREE_ENTRY_TARGET);
        try (RawPackSinkWriter writer = harness.writer()) {
            writer.write(blob(0, Placement.PACKED, ENTRY), null);
            writer.write(blob(1, Placement.INLINE, 10), null);
            writer.write(blob(2, Placement.PACKED, ENTRY), null);
            assertThat(writer.prepareCommit()).isEmpty();
            assertThat(writer.snapshotState(1))
                    .singleElement()
                    .isInstanceOfSatisfying(BlobSetWriterState.class, state -> {
                        assertThat(state.rows()).hasSize(3);
                        assertThat(state.openPack().pack().entryCount()).isEqualTo(2);
                    });

            writer.write(blob(3, Placement.PACKED, ENTRY), null);
            writer.write(blob(4, Placement.PACKED, ENTRY), null);

            Collection<BlobSetCommittable> committables = writer.prepareCommit();
            assertThat(committables).singleElement().satisfies(set -> {
                assertThat(set.rowCount()).isEqualTo(4);
                assertThat(set.sidecars()).hasSize(1);
            });
            assertThat(writer.snapshotState(2))
                    .singleElement()
                    .isInstanceOfSatisfying(
                            BlobSetWriterState.class,
                            state -> assertThat(state.rows())
                                    .extracting(DescriptorRow::sourceOffset)
                                    .containsExactly(4L));
            commit(committables);
        }
        assertResolvesToGeneratedBytes(
                new StoredBlobs(base).committedManifests().values().iterator().next());
    }

    @Test
    void sizeOrTimeCommitsAtTheFirstCheckpointAfterTheRollInterval() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.SIZE_OR_TIME, 8 * MIB);
        try (RawPackSinkWriter writer = harness.writer()) {
            writer.write(blob(0, Placement.INLINE, 5), null);
            harness.clock.now += WriterHarness.ROLL_INTERVAL.toMillis() - 1;
            assertThat(writer.prepareCommit()).isEmpty();
            harness.clock.now += 1;
            assertThat(writer.prepareCommit()).hasSize(1);
            assertThat(writer.snapshotState(3)).isEmpty();
        }
    }

    @Test
    void sizeOrTimeCommitsEverythingAtEndOfInput() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.SIZE_OR_TIME, 8 * MIB);
        try (RawPackSinkWriter writer = harness.writer()) {
            writer.write(blob(0, Placement.PACKED, 5), null);
            writer.flush(false);
            assertThat(writer.prepareCommit()).isEmpty();
            writer.flush(true);
            assertThat(writer.prepareCommit())
                    .singleElement()
                    .satisfies(set -> assertThat(set.rowCount()).isEqualTo(1));
        }
    }

    @Test
    void restoredWriterContinuesThePackFromTheCheckpointAndForgetsLaterWrites() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.SIZE_OR_TIME, 64 * MIB);
        long[] beforeCheckpoint = LongStream.range(0, 120).toArray();
        long[] lostAfterCheckpoint = LongStream.range(120, 160).toArray();
        long[] afterRestore = LongStream.range(1000, 1060).toArray();

        byte[] state;
        WriterStateSerializer serializer = harness.stateSerializer();
        RawPackSinkWriter failed = harness.writer();
        write(failed, beforeCheckpoint);
        assertThat(failed.prepareCommit()).isEmpty();
        state = serializer.serialize(failed.snapshotState(7).get(0));
        write(failed, lostAfterCheckpoint);
        failed.close();

        String blobSet;
        try (RawPackSinkWriter restored =
                harness.restore(List.of(serializer.deserialize(serializer.getVersion(), state)))) {
            write(restored, afterRestore);
            restored.flush(true);
            BlobSetCommittable set = restored.prepareCommit().iterator().next();
            blobSet = set.blobSet();
            commit(List.of(set));
        }

        StoredBlobs stored = new StoredBlobs(base);
        Map<String, List<DescriptorRow>> manifests = stored.committedManifests();
        assertThat(manifests).containsOnlyKeys(blobSet);
        List<DescriptorRow> rows = manifests.get(blobSet);
        List<Long> expected =
                new ArrayList<>(LongStream.of(beforeCheckpoint).boxed().toList());
        expected.addAll(LongStream.of(afterRestore).boxed().toList());
        assertThat(rows).extracting(DescriptorRow::sourceOffset).containsExactlyElementsOf(expected);
        for (DescriptorRow row : rows) {
            TestBlobs.assertDescribesItsBlob(row, stored);
        }
        stored.verifyPacks(blobSet, rows);
        stored.assertOnlyCommittedFilesAreVisible(manifests);
    }

    /**
     * On local disk Dedicated sidecars are closed for commit off the task thread: a checkpoint of an
     * open set must wait for them and keep every one, or a restore would lose blobs whose rows it
     * holds.
     */
    @Test
    void dedicatedSidecarsStillClosingAtACheckpointAreInItsStateAndCommitAfterARestore() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.SIZE_OR_TIME, 64 * MIB);
        int dedicated = SidecarDurability.MAX_PENDING_CLOSES + 4;
        WriterStateSerializer serializer = harness.stateSerializer();
        RawPackSinkWriter failed = harness.writer();
        for (int i = 0; i < dedicated; i++) {
            failed.write(blob(2L * i, Placement.DEDICATED, 64 * 1024 + i), null);
            failed.write(blob(2L * i + 1, Placement.PACKED, 1000 + i), null);
        }
        assertThat(failed.prepareCommit()).isEmpty();
        byte[] state = serializer.serialize(failed.snapshotState(7).get(0));
        failed.close();

        String blobSet;
        try (RawPackSinkWriter restored =
                harness.restore(List.of(serializer.deserialize(serializer.getVersion(), state)))) {
            restored.flush(true);
            BlobSetCommittable set = restored.prepareCommit().iterator().next();
            assertThat(set.sidecars())
                    .filteredOn(sidecar -> sidecar.kind() == SidecarKind.DEDICATED)
                    .hasSize(dedicated);
            blobSet = set.blobSet();
            commit(List.of(set));
        }

        List<DescriptorRow> rows = new StoredBlobs(base).committedManifests().get(blobSet);
        assertThat(rows)
                .extracting(DescriptorRow::sourceOffset)
                .containsExactlyElementsOf(
                        LongStream.range(0, 2L * dedicated).boxed().toList());
        assertResolvesToGeneratedBytes(rows);
    }

    @Test
    void extraRestoredBlobSetsAreSealedForTheNextCheckpoint() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.SIZE_OR_TIME, 64 * MIB);
        List<BlobSetWriterState> states = new ArrayList<>();
        for (int subtask = 0; subtask < 2; subtask++) {
            RawPackSinkWriter old = harness.writer();
            write(old, 10L * subtask + 1, 10L * subtask + 2);
            states.add((BlobSetWriterState) old.snapshotState(4).get(0));
            old.close();
        }
        List<BlobSetCommittable> committed = new ArrayList<>();
        try (RawPackSinkWriter restored = harness.restore(states)) {
            assertThat(restored.prepareCommit())
                    .singleElement()
                    .satisfies(set ->
                            assertThat(set.blobSet()).isEqualTo(states.get(1).blobSet()))
                    .satisfies(committed::add);
            restored.flush(true);
            assertThat(restored.prepareCommit())
                    .singleElement()
                    .satisfies(set ->
                            assertThat(set.blobSet()).isEqualTo(states.get(0).blobSet()))
                    .satisfies(committed::add);
        }
        commit(committed);
        assertThat(new StoredBlobs(base).committedManifests()).hasSize(2);
    }

    @Test
    void aSetOpenInAnOlderCheckpointButCommittedSinceIsNeverReopened() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.SIZE_OR_TIME, 64 * MIB);
        BlobSetWriterState olderCheckpoint;
        BlobSetCommittable committedSince;
        try (RawPackSinkWriter writer = harness.writer()) {
            write(writer, 1, 2, 3);
            olderCheckpoint = (BlobSetWriterState) writer.snapshotState(4).get(0);
            write(writer, 4, 5);
            writer.flush(true);
            committedSince = writer.prepareCommit().iterator().next();
        }
        commit(List.of(committedSince));
        StoredBlobs stored = new StoredBlobs(base);
        Map<String, List<DescriptorRow>> before = stored.committedManifests();
        Path manifest = base.resolve("_descriptors").resolve(committedSince.blobSet() + ".arrow");
        byte[] manifestBytes = Files.readAllBytes(manifest);

        assertThatThrownBy(() -> harness.restore(List.of(olderCheckpoint)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("blob set " + olderCheckpoint.blobSet()
                        + " is open in the restored checkpoint but " + "was committed after it")
                .hasMessageContaining("sink.raw-pack.allow-older-restore");

        WriterHarness allowing = new WriterHarness(base, RollPolicy.SIZE_OR_TIME, 64 * MIB, true);
        try (RawPackSinkWriter restored = allowing.restore(List.of(olderCheckpoint))) {
            restored.flush(true);
            assertThat(restored.prepareCommit())
                    .as("nothing re-opened, nothing to commit")
                    .isEmpty();
        }
        assertThat(stored.committedManifests()).containsOnlyKeys(committedSince.blobSet());
        assertThat(Files.readAllBytes(manifest))
                .as("the committed manifest, untouched")
                .isEqualTo(manifestBytes);
        stored.assertOnlyCommittedFilesAreVisible(before);
    }

    @Test
    void abandonedWriterLeavesOnlyHiddenInProgressFiles() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        RawPackSinkWriter writer = harness.writer();
        writer.write(blob(0, Placement.PACKED, 1000), null);
        writer.write(blob(1, Placement.DEDICATED, 1000), null);
        writer.prepareCommit();
        writer.write(blob(2, Placement.PACKED, 1000), null);
        writer.close();

        assertThat(StoredBlobs.visibleFiles(base)).isEmpty();
        assertThat(StoredBlobs.hiddenFiles(base))
                .hasSize(4)
                .allSatisfy(file -> assertThat(file.getFileName().toString()).contains(".inprogress."));
    }

    /**
     * Flink 2.2 closes a failed task's operators inside its failure handler, where an exception is
     * fatal to the TaskManager; releasing the open pack fails there for the reason the task failed
     * (a full disk makes Flink's S3 stream fail its close).
     */
    @Test
    void abandonedWriterClosesWithoutThrowingWhenReleasingItsOpenPackFails() throws IOException {
        WriterHarness harness = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        RawPackSinkWriter writer = new RawPackSinkWriter(
                harness.settings,
                new FullDiskOnClose(harness.fs),
                0,
                harness.clock,
                UnregisteredMetricsGroup.createSinkWriterMetricGroup(),
                List.of());
        writer.write(blob(0, Placement.PACKED, 1000), null);

        assertThatCode(writer::close).as("closing the abandoned writer").doesNotThrowAnyException();
        assertThat(StoredBlobs.visibleFiles(base)).isEmpty();
        assertThat(StoredBlobs.hiddenFiles(base))
                .singleElement()
                .satisfies(file -> assertThat(file.getFileName().toString()).contains(".inprogress."));
    }

    private static PlacedBlob blob(long offset, Placement placement, int size) {
        byte[] bytes = generated(offset, size);
        return new PlacedBlob(
                new BlobRecord(null, bytes, List.of(), "t", 0, offset, null), placement, bytes, List.of(), null);
    }

    private static byte[] generated(long offset, int size) {
        byte[] bytes = new byte[size];
        new SplittableRandom(offset * 31 + size).nextBytes(bytes);
        return bytes;
    }

    private void assertResolvesToGeneratedBytes(List<DescriptorRow> rows) throws IOException {
        StoredBlobs stored = new StoredBlobs(base);
        for (DescriptorRow row : rows) {
            assertThat(row.blob().kind()).isNotEqualTo(BlobKind.EXTERNAL);
            byte[] expected =
                    generated(row.sourceOffset(), Math.toIntExact(row.blob().size()));
            assertThat(stored.resolve(row)).as("bytes of " + row.source()).isEqualTo(expected);
        }
    }
}
