package io.blobingest.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.blobingest.job.internal.RunSummaryText;
import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.sink.RawPackSink;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.manifest.DescriptorManifestWriter;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.util.OptionalFailure;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RunSummary} over hand-made manifests and sidecars in a temporary base directory. */
class RunSummaryTest {

    private static final long ENTRY = 0x8000_0000_0000_0000L;
    private static final long TARGET = 4096;

    @TempDir
    Path base;

    private long nextOffset;

    @BeforeEach
    void oldRunLeftASet() throws IOException {
        writeSidecar("old", 1, 9999);
        writeManifest("old", List.of(packed("old", 0, 500, 1)));
    }

    @Test
    void countsOnlyTheManifestsCommittedAfterTheBaseline() throws IOException {
        RunBaseline baseline = baseline();
        writeSidecar("set-a", 1, 1000);
        writeSidecar("set-a", 2, 70_000);
        writeManifest(
                "set-a",
                List.of(
                        inline(10),
                        inline(0),
                        packed("set-a", 0, 400, 1),
                        packed("set-a", 1, 500, 1),
                        dedicated("set-a", 70_000, 2),
                        external(5, 100)));
        writeSidecar("set-b", 1, 3000);
        writeManifest("set-b", List.of(packed("set-b", 0, 2900, 1)));

        RunSummary summary = RunSummary.of(baseline, Duration.ofSeconds(2), TARGET, Map.of());

        assertThat(summary.blobSets()).isEqualTo(2);
        assertThat(summary.descriptors()).isEqualTo(7);
        assertThat(summary.kinds())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        BlobKind.INLINE, new RunSummary.KindTotals(2, 10),
                        BlobKind.PACKED, new RunSummary.KindTotals(3, 3800),
                        BlobKind.DEDICATED, new RunSummary.KindTotals(1, 70_000),
                        BlobKind.EXTERNAL, new RunSummary.KindTotals(1, 100)));
        assertThat(summary.bytesPlaced()).isEqualTo(10 + 3800 + 70_000);
        assertThat(summary.dedicatedSidecars()).isEqualTo(1);
        assertThat(summary.dedicatedBytes()).isEqualTo(70_000);
    }

    @Test
    void packsAreTheDistinctPackedSidecarsWithTheirSizesOnStorage() throws IOException {
        RunBaseline baseline = baseline();
        writeSidecar("set-a", 1, 1000);
        writeSidecar("set-a", 3, 3000);
        writeSidecar("set-b", 1, 2000);
        writeManifest(
                "set-a", List.of(packed("set-a", 0, 100, 1), packed("set-a", 1, 100, 1), packed("set-a", 0, 100, 3)));
        writeManifest("set-b", List.of(packed("set-b", 0, 100, 1)));

        RunSummary summary = summary(baseline);

        assertThat(summary.packs()).isEqualTo(3);
        assertThat(summary.packBytes()).isEqualTo(6000);
        assertThat(summary.averagePackBytes()).isEqualTo(2000);
        assertThat(summary.packFillRatio()).isCloseTo(2000.0 / TARGET, within(1e-9));
        assertThat(summary.sharedBlobs())
                .as("entry 0 of three packs is three objects")
                .isZero();
    }

    @Test
    void aRowNamingAnObjectAnotherRowNamedOrAnEarlierRunStoredIsSharedAndItsSizeSaved() throws IOException {
        RunBaseline baseline = baseline();
        writeSidecar("set-a", 1, 1000);
        writeSidecar("set-a", 2, 70_000);
        writeManifest(
                "set-a",
                List.of(
                        packed("set-a", 0, 400, 1),
                        packed("set-a", 0, 400, 1),
                        packed("set-a", 1, 300, 1),
                        dedicated("set-a", 70_000, 2)));
        writeSidecar("set-b", 1, 2000);
        writeManifest(
                "set-b",
                List.of(
                        packed("set-b", 0, 600, 1),
                        packed("set-a", 0, 400, 1),
                        dedicated("set-a", 70_000, 2),
                        packed("old", 0, 500, 1)));

        RunSummary summary = summary(baseline);

        assertThat(summary.sharedBlobs()).isEqualTo(4);
        assertThat(summary.sharedBytes()).isEqualTo(400 + 400 + 70_000 + 500);
        assertThat(summary.kinds())
                .containsEntry(BlobKind.PACKED, new RunSummary.KindTotals(6, 2600))
                .containsEntry(BlobKind.DEDICATED, new RunSummary.KindTotals(2, 140_000));
        assertThat(summary.bytesPlaced()).isEqualTo(142_600);
    }

    @Test
    void packsAndSidecarsOfAnEarlierRunThatSharedRowsNameAreNotThisRuns() throws IOException {
        writeSidecar("old", 2, 50_000);
        writeManifest("old", List.of(packed("old", 0, 500, 1), dedicated("old", 50_000, 2)));
        RunBaseline baseline = baseline();
        writeSidecar("set-a", 1, 1000);
        writeManifest(
                "set-a", List.of(packed("set-a", 0, 100, 1), packed("old", 0, 500, 1), dedicated("old", 50_000, 2)));

        RunSummary summary = summary(baseline);

        assertThat(summary.sharedBlobs()).isEqualTo(2);
        assertThat(summary.packs()).isEqualTo(1);
        assertThat(summary.packBytes()).isEqualTo(1000);
        assertThat(summary.dedicatedSidecars()).isZero();
        assertThat(summary.dedicatedBytes()).isZero();
    }

    @Test
    void aSetOfThisRunSharingFromOneListedAfterItCountsEachObjectOnceStored() throws IOException {
        RunBaseline baseline = baseline();
        writeSidecar("set-b", 1, 1000);
        writeManifest("set-a", List.of(packed("set-b", 3, 700, 1)));
        writeManifest("set-b", List.of(packed("set-b", 3, 700, 1), packed("set-b", 4, 200, 1)));

        RunSummary summary = summary(baseline);

        assertThat(summary.sharedBlobs()).isEqualTo(1);
        assertThat(summary.sharedBytes()).isEqualTo(700);
        assertThat(summary.packs()).isEqualTo(1);
        assertThat(summary.packBytes()).isEqualTo(1000);
    }

    @Test
    void ratesDivideDescriptorsAndPlacedBytesByTheElapsedTime() throws IOException {
        RunBaseline baseline = baseline();
        writeSidecar("set-a", 1, 3 * 1024 * 1024);
        writeManifest("set-a", List.of(dedicated("set-a", 3 * 1024 * 1024, 1), inline(0), external(0, 0), inline(0)));

        RunSummary summary = RunSummary.of(baseline, Duration.ofMillis(500), TARGET, Map.of());

        assertThat(summary.blobsPerSecond()).isCloseTo(8.0, within(1e-9));
        assertThat(summary.mebibytesPerSecond()).isCloseTo(6.0, within(1e-9));
    }

    @Test
    void aRunThatCommittedNothingHasZeroesEverywhere() throws IOException {
        RunSummary summary = RunSummary.of(
                RunBaseline.take(
                        new org.apache.flink.core.fs.Path(base.resolve("empty").toUri())),
                Duration.ZERO,
                TARGET,
                Map.of());

        assertThat(summary.descriptors()).isZero();
        assertThat(summary.blobSets()).isZero();
        assertThat(summary.packs()).isZero();
        assertThat(summary.packFillRatio()).isZero();
        assertThat(summary.blobsPerSecond()).isZero();
    }

    @Test
    void hiddenInProgressFilesAreNotManifests() throws IOException {
        RunBaseline baseline = baseline();
        Files.write(base.resolve("_descriptors/.set-c.arrow.inprogress.0b9a"), new byte[] {1, 2, 3});

        assertThat(baseline.newManifests()).isEmpty();
    }

    @Test
    void aMissingSidecarIsAnErrorNamingIt() throws IOException {
        RunBaseline baseline = baseline();
        writeManifest("set-a", List.of(packed("set-a", 0, 100, 2)));

        assertThatThrownBy(() -> summary(baseline))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("set-a/" + BlobSets.sidecarFileName(2));
    }

    @Test
    void formatShowsEveryKindPacksDeadLettersByCodeAndRates() throws IOException {
        RunBaseline baseline = baseline();
        writeSidecar("set-a", 1, 2048);
        writeManifest("set-a", List.of(inline(3), packed("set-a", 0, 1024, 1), external(0, 0)));

        String text = RunSummary.of(
                        baseline,
                        Duration.ofSeconds(3),
                        TARGET,
                        Map.of(DeadLetterCode.NULL_VALUE, 2L, DeadLetterCode.BAD_RANGE, 1L))
                .format();

        assertThat(text.lines().toList())
                .containsExactly(
                        "run summary: 3 descriptors in 1 blob sets, 3.0 s",
                        "  inline              1 blobs        3 B",
                        "  packed              1 blobs    1.0 KiB in 1 packs, average 2.0 KiB, 50.0% of the 4.0 KiB"
                                + " target",
                        "  dedicated           0 blobs        0 B in 0 sidecars",
                        "  external            1 references",
                        "  dead letters 3: null-value 2, bad-range 1",
                        "  throughput 1.0 blobs/s, 0.00 MiB/s");
    }

    @Test
    void formatShowsTheSharedLineOnlyWhenADescriptorWasShared() throws IOException {
        RunBaseline baseline = baseline();
        writeSidecar("set-a", 1, 2048);
        writeManifest(
                "set-a", List.of(packed("set-a", 0, 1024, 1), packed("set-a", 0, 1024, 1), packed("old", 0, 500, 1)));

        String text = summary(baseline).format();

        assertThat(text.lines().toList())
                .containsExactly(
                        "run summary: 3 descriptors in 1 blob sets, 1.0 s",
                        "  inline              0 blobs        0 B",
                        "  packed              3 blobs    2.5 KiB in 1 packs, average 2.0 KiB, 50.0% of the 4.0 KiB"
                                + " target",
                        "  dedicated           0 blobs        0 B in 0 sidecars",
                        "  shared              2 blobs    1.5 KiB not stored again (exact sharing)",
                        "  external            0 references",
                        "  dead letters 0",
                        "  throughput 3.0 blobs/s, 0.00 MiB/s");
    }

    @Test
    void formatShowsTheSharingIndexAfterTheSharedLine() throws IOException {
        RunBaseline baseline = baseline();
        writeSidecar("set-a", 1, 2048);
        writeManifest("set-a", List.of(packed("set-a", 0, 1024, 1), packed("set-a", 0, 1024, 1)));

        String text = RunSummary.of(
                        baseline, Duration.ofSeconds(1), TARGET, Map.of(), new RunSummary.SharingIndex(1234, 100_000))
                .format();

        assertThat(text.lines().toList())
                .containsSubsequence(
                        "  shared              1 blobs    1.0 KiB not stored again (exact sharing)",
                        "  sharing index 1,234 objects remembered (at most 100,000 per subtask)",
                        "  external            0 references");
    }

    @Test
    void formatShowsTheSharingIndexWhenSharingWasOnEvenIfNothingWasShared() throws IOException {
        RunBaseline baseline = baseline();
        writeSidecar("set-a", 1, 2048);
        writeManifest("set-a", List.of(packed("set-a", 0, 1024, 1)));

        List<String> lines = RunSummary.of(
                        baseline, Duration.ofSeconds(1), TARGET, Map.of(), new RunSummary.SharingIndex(1, 50))
                .format()
                .lines()
                .toList();

        assertThat(lines).contains("  sharing index 1 objects remembered (at most 50 per subtask)");
        assertThat(lines).noneMatch(line -> line.startsWith("  shared "));
        assertThat(summary(baseline).format()).as("sharing off").doesNotContain("sharing index");
    }

    @Test
    void theSharingIndexOfAFinishedJobIsItsAccumulatorAndTheConfiguredIndexSize() throws IOException {
        RunBaseline baseline = baseline();
        Configuration config = new Configuration();
        config.set(RawPackSinkOptions.EXACT_SHARING_INDEX_SIZE, 5000);

        RunSummary sharing = RunSummary.of(
                baseline, finishedJob(Map.of(RawPackSink.SHARING_INDEX_ENTRIES_ACCUMULATOR, 7321L)), config);
        RunSummary notSharing = RunSummary.of(baseline, finishedJob(Map.of()), config);

        assertThat(sharing.sharingIndex()).contains(new RunSummary.SharingIndex(7321, 5000));
        assertThat(notSharing.sharingIndex())
                .as("no accumulator: sharing was off")
                .isEmpty();
    }

    @Test
    void sizesUseBinaryUnits() {
        assertThat(RunSummaryText.size(1023)).isEqualTo("1023 B");
        assertThat(RunSummaryText.size(1024)).isEqualTo("1.0 KiB");
        assertThat(RunSummaryText.size(1536L * 1024 * 1024)).isEqualTo("1.5 GiB");
    }

    private static JobExecutionResult finishedJob(Map<String, Object> accumulators) {
        Map<String, OptionalFailure<Object>> results = new HashMap<>();
        accumulators.forEach((name, value) -> results.put(name, OptionalFailure.of(value)));
        return new JobExecutionResult(new JobID(), 1000, results);
    }

    private static RunSummary summary(RunBaseline baseline) throws IOException {
        return RunSummary.of(baseline, Duration.ofSeconds(1), TARGET, Map.of());
    }

    private RunBaseline baseline() throws IOException {
        return RunBaseline.take(new org.apache.flink.core.fs.Path(base.toUri()));
    }

    private void writeSidecar(String blobSet, long id, int length) throws IOException {
        Path file = base.resolve(blobSet).resolve(BlobSets.sidecarFileName(id));
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[length]);
    }

    private void writeManifest(String blobSet, List<DescriptorRow> rows) throws IOException {
        Path file = base.resolve(BlobSets.DESCRIPTORS_DIRECTORY).resolve(blobSet + BlobSets.MANIFEST_SUFFIX);
        Files.createDirectories(file.getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            DescriptorManifestWriter.write(blobSet, new ArrayList<>(rows), out);
        }
    }

    private DescriptorRow inline(int size) {
        return row(BlobDescriptor.inline(size), null, new byte[size], 0L);
    }

    private DescriptorRow packed(String blobSet, int entry, long size, long sidecarId) {
        return row(BlobDescriptor.packed(ENTRY | entry, size, sidecarId), blobSet, null, 0L);
    }

    private DescriptorRow dedicated(String blobSet, long size, long sidecarId) {
        return row(BlobDescriptor.dedicated(size, sidecarId), blobSet, null, 0L);
    }

    private DescriptorRow external(long position, long size) {
        return row(BlobDescriptor.external("s3://bucket/clip.mp4", position, size), null, null, null);
    }

    private DescriptorRow row(BlobDescriptor blob, String blobSet, byte[] inlineData, Long crc32c) {
        return new DescriptorRow(null, "blobs", 0, nextOffset++, null, blob, blobSet, inlineData, crc32c, List.of());
    }
}
