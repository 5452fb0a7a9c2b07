package io.blobingest.bench;

import io.blobingest.sink.ExactSharing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One workload's figures, all measured in the same run, and the ratios the targets are about.
 * Rates of every contender are over the same input: the records and value bytes of the topic.
 *
 * @param records records preloaded into the input topic
 * @param bytes their value bytes
 * @param disk the same bytes written sequentially to the workload's directory: the physical limit
 * @param sharing blob-ingest with exact sharing off, within-subtask and within-job, each unbounded
 *     until its input is delivered (the duplicates workload)
 * @param fleet blob-ingest on the same records spread over several topics ({@code --topics})
 */
public record WorkloadOutcome(
        BenchWorkload workload,
        long records,
        long bytes,
        ContenderFigures consume,
        ContenderFigures filesink,
        ContenderFigures ingest,
        ReadFigures read,
        Optional<S3ReadFigures> s3Read,
        Map<String, SteadyFigures> steady,
        List<FreshnessFigures> freshness,
        DiskFigures disk,
        Optional<SharingFigures> sharing,
        Optional<FleetFigures> fleet) {

    public WorkloadOutcome {
        steady = Map.copyOf(steady);
        freshness = List.copyOf(freshness);
    }

    public static final double TARGET_INGEST_VS_CONSUME = 0.8;
    public static final double TARGET_INGEST_VS_FILESINK = 1.5;
    public static final double TARGET_READ_VS_RAW = 1.2;
    public static final double TARGET_READ_REQUESTS_RATIO = 10;
    public static final double TARGET_S3_BATCH_SPEEDUP = 20;
    public static final double TARGET_S3_VS_IDEAL = 1.5;
    public static final double TARGET_S3_VS_LANCE_STYLE = 1.0;
    public static final double TARGET_STEADY_VS_FILESINK = 1.0;
    public static final double TARGET_STEADY_VS_CONSUME = 0.7;
    /** Where the disk is the limit (a workload larger than the page cache). */
    public static final double TARGET_STEADY_VS_DISK = 0.9;
    /** The freshness target: p99 at most one checkpoint interval plus this. */
    public static final Duration TARGET_FRESHNESS_SLACK = Duration.ofSeconds(1);
    /** The interval {@code freshness_p99_over_interval} is taken at. */
    public static final Duration FRESHNESS_RESULT_INTERVAL = Duration.ofSeconds(2);
    /** Each sharing mode's bytes/s over sharing off's, whole run and steady (issue #24). */
    public static final double TARGET_SHARING_VS_OFF = 0.9;
    /** Sidecar bytes of {@code within-job} over the distinct blobs' bytes (issue #24: within 1%). */
    public static final double TARGET_STORED_VS_UNIQUE = 1.01;
    /** What a RESULT line says for a figure this run did not measure. */
    public static final String NOT_MEASURED = "n/a";

    /** consume, filesink, blob-ingest, blob-ingest on several topics, then blob-ingest with each sharing mode. */
    public List<ContenderFigures> contenders() {
        List<ContenderFigures> contenders = new ArrayList<>(List.of(consume, filesink, ingest));
        fleet.ifPresent(figures -> contenders.add(figures.contender()));
        sharing.ifPresent(figures -> figures.runs().forEach(run -> contenders.add(run.contender())));
        return contenders;
    }

    /** Megabytes (10^6 bytes) of input per second of the contender's work. */
    public double megabytesPerSecond(ContenderFigures contender) {
        return bytes / 1e6 / seconds(contender.work());
    }

    public double blobsPerSecond(ContenderFigures contender) {
        return records / seconds(contender.work());
    }

    /** blob-ingest's bytes/s over the plain consumer's. */
    public double ingestVsConsume() {
        return seconds(consume.work()) / seconds(ingest.work());
    }

    /** blob-ingest's bytes/s over the KafkaSource-to-FileSink job's. */
    public double ingestVsFilesink() {
        return seconds(filesink.work()) / seconds(ingest.work());
    }

    /**
     * blob-ingest's bytes/s on the records spread over several topics (one job) over its bytes/s on one topic, whole
     * run: above 1 the fleet run was faster.
     */
    public Optional<Double> fleetVsOneTopic() {
        return fleet.map(
                figures -> seconds(ingest.work()) / seconds(figures.contender().work()));
    }

    /** blob-ingest's bytes/s with {@code run}'s sharing mode over its bytes/s with sharing off, whole run. */
    public double sharingVsOff(SharingFigures.Run run) {
        return seconds(sharing.orElseThrow().off().contender().work())
                / seconds(run.contender().work());
    }

    /** The same in the steady phase, if both runs had one. */
    public Optional<Double> steadySharingVsOff(SharingFigures.Run run) {
        ContenderFigures off = sharing.orElseThrow().off().contender();
        return steady(run.contender())
                .flatMap(mine -> steady(off).map(theirs -> mine.megabytesPerSecond() / theirs.megabytesPerSecond()));
    }

    /** A contender's steady phase, if its run was long enough to have one. */
    public Optional<SteadyFigures> steady(ContenderFigures contender) {
        return Optional.ofNullable(steady.get(contender.contender()));
    }

    /** blob-ingest's steady bytes/s over the KafkaSource-to-FileSink job's. */
    public Optional<Double> steadyVsFilesink() {
        return steadyRatio(filesink);
    }

    /** blob-ingest's steady bytes/s over the plain consumer's. */
    public Optional<Double> steadyVsConsume() {
        return steadyRatio(consume);
    }

    /** blob-ingest's steady bytes/s over a sequential write's, fsync included, to the same directory. */
    public Optional<Double> steadyVsDisk() {
        return steady(ingest).map(mine -> mine.megabytesPerSecond() / disk.syncedMegabytesPerSecond());
    }

    /** blob-ingest's steady bytes/s over a sequential write's without fsync: what the page cache takes. */
    public Optional<Double> steadyVsPageCache() {
        return steady(ingest).map(mine -> mine.megabytesPerSecond() / disk.unsyncedMegabytesPerSecond());
    }

    private Optional<Double> steadyRatio(ContenderFigures other) {
        return steady(ingest)
                .flatMap(mine -> steady(other).map(theirs -> mine.megabytesPerSecond() / theirs.megabytesPerSecond()));
    }

    /** Freshness at {@link #FRESHNESS_RESULT_INTERVAL}, if it was measured there. */
    public Optional<FreshnessFigures> freshnessForResult() {
        return freshness.stream()
                .filter(f -> f.interval().equals(FRESHNESS_RESULT_INTERVAL))
                .findFirst();
    }

    /**
     * What went wrong: a contender that did not read every record, a blob the read side could not
     * verify. Empty when the figures can be trusted.
     */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        for (ContenderFigures contender : contenders()) {
            if (contender.records() != records) {
                problems.add(String.format(
                        Locale.ROOT,
                        "%s: %s read %,d records, the topic holds %,d",
                        workload.label(),
                        contender.contender(),
                        contender.records(),
                        records));
            }
            if (contender.restarts() > 0) {
                problems.add(String.format(
                        Locale.ROOT,
                        "%s: %s failed over %d time(s) and replayed from a checkpoint; its time and CPU include that"
                                + " (why: its log)",
                        workload.label(),
                        contender.contender(),
                        contender.restarts()));
            }
        }
        if (read.verified() != read.blobs()) {
            problems.add(String.format(
                    Locale.ROOT,
                    "%s: the read side verified %,d of %,d blobs",
                    workload.label(),
                    read.verified(),
                    read.blobs()));
        }
        sharing.ifPresent(figures -> problems.addAll(sharingProblems(figures)));
        fleet.map(FleetFigures::contender)
                .filter(run -> run.bytes() != ingest.bytes())
                .ifPresent(run -> problems.add(String.format(
                        Locale.ROOT,
                        "%s: %s placed %,d bytes of blobs, %s on one topic %,d",
                        workload.label(),
                        run.contender(),
                        run.bytes(),
                        ingest.contender(),
                        ingest.bytes())));
        s3Read.filter(s3 -> s3.verified() != s3.blobs())
                .ifPresent(s3 -> problems.add(String.format(
                        Locale.ROOT,
                        "%s: the S3 read side verified %,d of %,d blobs",
                        workload.label(),
                        s3.verified(),
                        s3.blobs())));
        return problems;
    }

    /** Every sharing run must place every input byte, and its read side verify every blob. */
    private List<String> sharingProblems(SharingFigures figures) {
        List<String> problems = new ArrayList<>();
        for (SharingFigures.Run run : figures.runs()) {
            if (run.contender().bytes() != figures.inputBytes()) {
                problems.add(String.format(
                        Locale.ROOT,
                        "%s: %s placed %,d bytes of blobs, the input holds %,d",
                        workload.label(),
                        run.contender().contender(),
                        run.contender().bytes(),
                        figures.inputBytes()));
            }
            // The run with sharing off has the bounded run's read side, checked above.
            if (run.mode() != ExactSharing.OFF
                    && run.read().verified() != run.read().blobs()) {
                problems.add(String.format(
                        Locale.ROOT,
                        "%s: the read side of %s verified %,d of %,d blobs",
                        workload.label(),
                        run.contender().contender(),
                        run.read().verified(),
                        run.read().blobs()));
            }
        }
        return problems;
    }

    /**
     * {@code RESULT workload=mixed ingest_vs_consume=0.xx ingest_vs_filesink=x.xx read_vs_raw=x.xx
     * read_requests_ratio=xx}; with the sharing comparison (the duplicates workload) also, per mode M
     * ({@code subtask}, {@code job}), {@code sharing_M_vs_off=x.xx}, then {@code stored_vs_input_M=x.xxx}
     * for {@code off} and each M, {@code unique_vs_input=x.xxx} (the ideal) and {@code read_vs_raw_M=x.xx}; with the
     * fleet comparison ({@code --topics}) last {@code fleet_vs_one_topic=x.xx}.
     */
    public String resultLine() {
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "RESULT workload=%s ingest_vs_consume=%.2f ingest_vs_filesink=%.2f read_vs_raw=%.2f"
                        + " read_requests_ratio=%.0f",
                workload.label(),
                ingestVsConsume(),
                ingestVsFilesink(),
                read.batchVsRaw(),
                read.requestsSingleVsBatch()));
        if (sharing.isPresent()) {
            SharingFigures figures = sharing.get();
            for (SharingFigures.Run run : figures.sharing()) {
                line.append(String.format(Locale.ROOT, " sharing_%s_vs_off=%.2f", run.resultKey(), sharingVsOff(run)));
            }
            for (SharingFigures.Run run : figures.runs()) {
                line.append(String.format(
                        Locale.ROOT, " stored_vs_input_%s=%.3f", run.resultKey(), figures.storedVsInput(run)));
            }
            line.append(String.format(Locale.ROOT, " unique_vs_input=%.3f", figures.uniqueVsInput()));
            for (SharingFigures.Run run : figures.sharing()) {
                line.append(String.format(
                        Locale.ROOT,
                        " read_vs_raw_%s=%.2f",
                        run.resultKey(),
                        run.read().batchVsRaw()));
            }
        }
        fleetVsOneTopic()
                .ifPresent(ratio -> line.append(String.format(Locale.ROOT, " fleet_vs_one_topic=%.2f", ratio)));
        return line.toString();
    }

    /**
     * {@code RESULT workload=W steady_vs_filesink=x.xx steady_vs_consume=x.xx freshness_p99_over_interval=x.xx
     * s3_batch_speedup=xx s3_vs_ideal=x.xx s3_vs_lance_style=x.xx steady_vs_disk=x.xx}; a figure this
     * run did not measure is {@value #NOT_MEASURED}. With the sharing comparison also {@code
     * steady_sharing_M_vs_off=x.xx} per mode M ({@code subtask}, {@code job}).
     */
    public String streamingResultLine() {
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "RESULT workload=%s steady_vs_filesink=%s steady_vs_consume=%s freshness_p99_over_interval=%s"
                        + " s3_batch_speedup=%s s3_vs_ideal=%s s3_vs_lance_style=%s steady_vs_disk=%s",
                workload.label(),
                format(steadyVsFilesink(), "%.2f"),
                format(steadyVsConsume(), "%.2f"),
                format(freshnessForResult().map(FreshnessFigures::p99OverInterval), "%.2f"),
                format(s3Read.map(S3ReadFigures::batchSpeedup), "%.0f"),
                format(s3Read.map(S3ReadFigures::batchVsIdeal), "%.2f"),
                format(s3Read.map(S3ReadFigures::batchVsLanceStyle), "%.2f"),
                format(steadyVsDisk(), "%.2f")));
        sharing.ifPresent(figures -> figures.sharing()
                .forEach(run -> line.append(" steady_sharing_")
                        .append(run.resultKey())
                        .append("_vs_off=")
                        .append(format(steadySharingVsOff(run), "%.2f"))));
        return line.toString();
    }

    private static String format(Optional<Double> value, String format) {
        return value.map(v -> String.format(Locale.ROOT, format, v)).orElse(NOT_MEASURED);
    }

    private static double seconds(Duration duration) {
        return Math.max(duration.toNanos(), 1) / 1e9;
    }
}
