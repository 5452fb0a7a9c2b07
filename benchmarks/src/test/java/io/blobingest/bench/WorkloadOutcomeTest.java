package io.blobingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.sink.ExactSharing;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WorkloadOutcomeTest {

    private static final long RECORDS = 1_000;
    private static final long BYTES = 400_000_000;
    /** Blobs placed: the record values' bytes and, in the duplicates workload, those of External files. */
    private static final long BLOB_BYTES = 500_000_000;
    /** 400 MB/s with fsync, 2,000 MB/s without. */
    private static final DiskFigures DISK = new DiskFigures(BYTES, Duration.ofSeconds(1), Duration.ofMillis(200));

    @Test
    void ratiosCompareTheSameInputOverEachContendersTime() {
        WorkloadOutcome outcome = outcome(RECORDS, read(10_000, 10_000));

        assertThat(outcome.megabytesPerSecond(outcome.consume())).isEqualTo(100.0);
        assertThat(outcome.blobsPerSecond(outcome.ingest())).isEqualTo(200.0);
        assertThat(outcome.ingestVsConsume()).isEqualTo(0.8);
        assertThat(outcome.ingestVsFilesink()).isEqualTo(2.0);
        assertThat(outcome.resultLine())
                .isEqualTo("RESULT workload=small ingest_vs_consume=0.80 ingest_vs_filesink=2.00 read_vs_raw=1.10"
                        + " read_requests_ratio=25");
        assertThat(outcome.problems()).isEmpty();
    }

    @Test
    void theStreamingResultLineCarriesTheS3RatiosAndSaysWhatWasNotMeasured() {
        WorkloadOutcome withoutS3 = outcome(RECORDS, read(10_000, 10_000));
        WorkloadOutcome withS3 =
                withStreaming(withoutS3, Optional.of(S3ReadFiguresTest.figures(10_000)), Map.of(), List.of());

        assertThat(withoutS3.streamingResultLine())
                .isEqualTo("RESULT workload=small steady_vs_filesink=n/a"
                        + " steady_vs_consume=n/a freshness_p99_over_interval=n/a s3_batch_speedup=n/a s3_vs_ideal=n/a"
                        + " s3_vs_lance_style=n/a steady_vs_disk=n/a");
        assertThat(withS3.streamingResultLine())
                .isEqualTo("RESULT workload=small steady_vs_filesink=n/a"
                        + " steady_vs_consume=n/a freshness_p99_over_interval=n/a s3_batch_speedup=40 s3_vs_ideal=1.25"
                        + " s3_vs_lance_style=0.80 steady_vs_disk=n/a");
        assertThat(withS3.problems()).isEmpty();
    }

    @Test
    void theStreamingResultLineCarriesSteadyRatiosAndTheP99OverTheTwoSecondInterval() {
        WorkloadOutcome plain = outcome(RECORDS, read(10_000, 10_000));
        WorkloadOutcome outcome = withStreaming(
                plain,
                Optional.of(S3ReadFiguresTest.figures(10_000)),
                Map.of("consume", steady(200), "filesink", steady(80), "blob-ingest", steady(100)),
                List.of(
                        FreshnessFiguresTest.figures(Duration.ofSeconds(1), 2_100),
                        FreshnessFiguresTest.figures(Duration.ofSeconds(2), 2_900),
                        FreshnessFiguresTest.figures(Duration.ofSeconds(10), 11_000)));

        assertThat(outcome.streamingResultLine())
                .isEqualTo("RESULT workload=small steady_vs_filesink=1.25"
                        + " steady_vs_consume=0.50 freshness_p99_over_interval=1.45 s3_batch_speedup=40"
                        + " s3_vs_ideal=1.25"
                        + " s3_vs_lance_style=0.80 steady_vs_disk=0.25");
    }

    @Test
    void theDiskRatiosSetBlobIngestsSteadyRateAgainstASequentialWriteWithAndWithoutFsync() {
        WorkloadOutcome plain = outcome(RECORDS, read(10_000, 10_000));
        WorkloadOutcome outcome = withStreaming(plain, Optional.empty(), Map.of("blob-ingest", steady(360)), List.of());

        assertThat(DISK.syncedMegabytesPerSecond()).isEqualTo(400.0);
        assertThat(DISK.unsyncedMegabytesPerSecond()).isEqualTo(2_000.0);
        assertThat(outcome.steadyVsDisk()).hasValue(0.9);
        assertThat(outcome.steadyVsPageCache()).hasValue(0.18);
        assertThat(outcome.streamingResultLine()).endsWith(" steady_vs_disk=0.90");
        assertThat(plain.steadyVsDisk()).as("without a steady phase").isEmpty();
    }

    @Test
    void aSteadyRatioNeedsBothContendersSteadyPhases() {
        WorkloadOutcome plain = outcome(RECORDS, read(10_000, 10_000));
        WorkloadOutcome outcome = withStreaming(
                plain,
                Optional.empty(),
                Map.of("filesink", steady(80), "blob-ingest", steady(100)),
                List.of(FreshnessFiguresTest.figures(Duration.ofSeconds(1), 2_100)));

        assertThat(outcome.streamingResultLine())
                .isEqualTo("RESULT workload=small steady_vs_filesink=1.25"
                        + " steady_vs_consume=n/a freshness_p99_over_interval=n/a s3_batch_speedup=n/a s3_vs_ideal=n/a"
                        + " s3_vs_lance_style=n/a steady_vs_disk=0.25");
    }

    /** {@code plain}'s contenders and reads, with these streaming figures. */
    private static WorkloadOutcome withStreaming(
            WorkloadOutcome plain,
            Optional<S3ReadFigures> s3Read,
            Map<String, SteadyFigures> steady,
            List<FreshnessFigures> freshness) {
        return with(plain, plain.workload(), s3Read, steady, freshness, Optional.empty(), Optional.empty());
    }

    /** {@code plain}'s contenders and reads as {@code workload}'s, with these figures. */
    private static WorkloadOutcome with(
            WorkloadOutcome plain,
            BenchWorkload workload,
            Optional<S3ReadFigures> s3Read,
            Map<String, SteadyFigures> steady,
            List<FreshnessFigures> freshness,
            Optional<SharingFigures> sharing,
            Optional<FleetFigures> fleet) {
        return new WorkloadOutcome(
                workload,
                RECORDS,
                BYTES,
                plain.consume(),
                plain.filesink(),
                plain.ingest(),
                plain.read(),
                s3Read,
                steady,
                freshness,
                DISK,
                sharing,
                fleet);
    }

    /** A steady phase of 1 s at {@code megabytesPerSecond}. */
    private static SteadyFigures steady(long megabytesPerSecond) {
        return new SteadyFigures(megabytesPerSecond * 1_000_000, Duration.ofSeconds(1), Duration.ofSeconds(1));
    }

    @Test
    void anUnverifiedBlobOverS3IsAProblem() {
        WorkloadOutcome outcome = outcome(RECORDS, read(10_000, 10_000));
        WorkloadOutcome withS3 =
                withStreaming(outcome, Optional.of(S3ReadFiguresTest.figures(9_999)), Map.of(), List.of());

        assertThat(withS3.problems()).containsExactly("small: the S3 read side verified 9,999 of 10,000 blobs");
    }

    @Test
    void aContenderThatMissedRecordsOrAnUnverifiedBlobIsAProblem() {
        WorkloadOutcome outcome = outcome(RECORDS - 1, read(10_000, 9_999));

        assertThat(outcome.problems())
                .containsExactly(
                        "small: blob-ingest read 999 records, the topic holds 1,000",
                        "small: the read side verified 9,999 of 10,000 blobs");
    }

    @Test
    void theSharingComparisonAddsEachModesSpeedStoredBytesAndReadsToTheResultLines() {
        WorkloadOutcome outcome = sharingOutcome(RECORDS, BLOB_BYTES, 0, read(10_000, 10_000));

        assertThat(outcome.contenders())
                .extracting(ContenderFigures::contender)
                .containsExactly(
                        "consume",
                        "filesink",
                        "blob-ingest",
                        "blob-ingest-off",
                        "blob-ingest-within-subtask",
                        "blob-ingest-within-job");
        assertThat(outcome.resultLine())
                .isEqualTo("RESULT workload=duplicates ingest_vs_consume=0.80 ingest_vs_filesink=2.00"
                        + " read_vs_raw=1.10 read_requests_ratio=25 sharing_subtask_vs_off=1.00"
                        + " sharing_job_vs_off=0.80 stored_vs_input_off=1.001 stored_vs_input_subtask=0.800"
                        + " stored_vs_input_job=0.701 unique_vs_input=0.700 read_vs_raw_subtask=1.10"
                        + " read_vs_raw_job=1.10");
        assertThat(outcome.streamingResultLine())
                .endsWith(" steady_vs_disk=0.25 steady_sharing_subtask_vs_off=0.90 steady_sharing_job_vs_off=n/a");
        SharingFigures sharing = outcome.sharing().orElseThrow();
        assertThat(sharing.storedVsUnique(sharing.run(ExactSharing.WITHIN_JOB).orElseThrow()))
                .isLessThan(WorkloadOutcome.TARGET_STORED_VS_UNIQUE);
        assertThat(outcome.problems()).isEmpty();
    }

    @Test
    void aSharingRunThatMissedRecordsOrBytesFailedOverOrLeftAnUnverifiedBlobIsAProblem() {
        WorkloadOutcome outcome = sharingOutcome(RECORDS - 1, BLOB_BYTES - 1, 1, read(10_000, 9_999));

        assertThat(outcome.problems())
                .containsExactly(
                        "duplicates: blob-ingest-within-job read 999 records, the topic holds 1,000",
                        "duplicates: blob-ingest-within-job failed over 1 time(s) and replayed from a checkpoint; its"
                                + " time and CPU include that (why: its log)",
                        "duplicates: blob-ingest-within-job placed 499,999,999 bytes of blobs, the input holds"
                                + " 500,000,000",
                        "duplicates: the read side of blob-ingest-within-job verified 9,999 of 10,000 blobs");
    }

    /**
     * The duplicates workload: 500 MB of blobs, 350 MB of them distinct; bounded, blob-ingest takes 5 s; unbounded
     * until delivered, with sharing off 6 s, within-subtask too, within-job 7.5 s (whose read side and figures are as
     * given). The ratios to sharing off are to the unbounded run's time, measured as the others are.
     */
    private static WorkloadOutcome sharingOutcome(
            long jobRecords, long jobBytes, long jobRestarts, ReadFigures jobRead) {
        WorkloadOutcome plain = outcome(RECORDS, read(10_000, 10_000));
        ContenderFigures off = contender("blob-ingest-off", RECORDS, 6);
        SharingFigures sharing = new SharingFigures(
                BLOB_BYTES,
                350_000_000,
                300,
                List.of(
                        new SharingFigures.Run(ExactSharing.OFF, off, stored(500_500_000, 0), plain.read()),
                        new SharingFigures.Run(
                                ExactSharing.WITHIN_SUBTASK,
                                contender("blob-ingest-within-subtask", RECORDS, 6),
                                stored(400_000_000, 200),
                                plain.read()),
                        new SharingFigures.Run(
                                ExactSharing.WITHIN_JOB,
                                new ContenderFigures(
                                        "blob-ingest-within-job",
                                        jobRecords,
                                        jobBytes,
                                        Duration.ofMillis(7_500),
                                        Duration.ofSeconds(3),
                                        300L << 20,
                                        jobRestarts),
                                stored(350_500_000, 300),
                                jobRead)));
        return with(
                plain,
                BenchWorkload.DUPLICATES,
                Optional.empty(),
                Map.of(
                        "blob-ingest",
                        steady(100),
                        "blob-ingest-off",
                        steady(100),
                        "blob-ingest-within-subtask",
                        steady(90)),
                List.of(),
                Optional.of(sharing),
                Optional.empty());
    }

    @Test
    void theFleetComparisonAddsTheRunOnSeveralTopicsAndItsSpeedOverTheRunOnOneTopic() {
        WorkloadOutcome outcome = fleetOutcome(contender("blob-ingest-4-topics", RECORDS, 4));

        assertThat(outcome.contenders())
                .extracting(ContenderFigures::contender)
                .containsExactly("consume", "filesink", "blob-ingest", "blob-ingest-4-topics");
        // One topic 5 s, four topics 4 s: the fleet ran at 1.25 times the bytes/s, as ingest_vs_filesink counts.
        assertThat(outcome.fleetVsOneTopic()).hasValue(1.25);
        assertThat(outcome.resultLine())
                .isEqualTo("RESULT workload=small ingest_vs_consume=0.80 ingest_vs_filesink=2.00 read_vs_raw=1.10"
                        + " read_requests_ratio=25 fleet_vs_one_topic=1.25");
        assertThat(outcome.problems()).isEmpty();
        WorkloadOutcome oneTopic = outcome(RECORDS, read(10_000, 10_000));
        assertThat(oneTopic.fleetVsOneTopic()).isEmpty();
        assertThat(oneTopic.resultLine()).doesNotContain("fleet");
    }

    @Test
    void aFleetRunThatMissedRecordsOrPlacedOtherBytesIsAProblem() {
        WorkloadOutcome outcome = fleetOutcome(new ContenderFigures(
                "blob-ingest-4-topics",
                RECORDS - 1,
                BLOB_BYTES - 1,
                Duration.ofSeconds(4),
                Duration.ofSeconds(3),
                300L << 20,
                0));

        assertThat(outcome.problems())
                .containsExactly(
                        "small: blob-ingest-4-topics read 999 records, the topic holds 1,000",
                        "small: blob-ingest-4-topics placed 499,999,999 bytes of blobs, blob-ingest on one topic"
                                + " 500,000,000");
    }

    /** The small workload, blob-ingest 5 s on one topic, {@code fleet} its run on four topics. */
    static WorkloadOutcome fleetOutcome(ContenderFigures fleet) {
        WorkloadOutcome plain = outcome(RECORDS, read(10_000, 10_000));
        return with(
                plain,
                plain.workload(),
                Optional.empty(),
                Map.of(),
                List.of(),
                Optional.empty(),
                Optional.of(new FleetFigures(4, fleet)));
    }

    private static StoredFigures stored(long bytes, long sharedRows) {
        return new StoredFigures(bytes, 10, RECORDS, sharedRows);
    }

    static WorkloadOutcome outcome(long ingestRecords, ReadFigures read) {
        return new WorkloadOutcome(
                BenchWorkload.SMALL,
                RECORDS,
                BYTES,
                contender("consume", RECORDS, 4),
                contender("filesink", RECORDS, 10),
                contender("blob-ingest", ingestRecords, 5),
                read,
                Optional.empty(),
                Map.of(),
                List.of(),
                DISK,
                Optional.empty(),
                Optional.empty());
    }

    static ContenderFigures contender(String name, long records, long seconds) {
        return new ContenderFigures(
                name, records, BLOB_BYTES, Duration.ofSeconds(seconds), Duration.ofSeconds(3), 300L << 20, 0);
    }

    static ReadFigures read(long blobs, long verified) {
        return new ReadFigures(
                blobs,
                30_000,
                340_000_000,
                new ReadFigures.Way(Duration.ofMillis(110), 400),
                new ReadFigures.Way(Duration.ofMillis(300), 10_000),
                new ReadFigures.Way(Duration.ofMillis(100), 10_000),
                verified,
                List.of(new ReadFigures.HoleLimitWay(65_536, new ReadFigures.Way(Duration.ofMillis(120), 300))));
    }
}
