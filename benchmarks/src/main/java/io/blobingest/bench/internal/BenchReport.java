package io.blobingest.bench.internal;

import io.blobingest.bench.BenchWorkload;
import io.blobingest.bench.ContenderFigures;
import io.blobingest.bench.DiskFigures;
import io.blobingest.bench.FreshnessFigures;
import io.blobingest.bench.ReadFigures;
import io.blobingest.bench.S3ReadFigures;
import io.blobingest.bench.SharingFigures;
import io.blobingest.bench.SteadyFigures;
import io.blobingest.bench.WorkloadOutcome;
import io.blobingest.cli.TextTable;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.storage.ReadTuning;
import io.blobingest.sink.ExactSharing;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.flink.util.TimeUtils;

/** Renders what {@code bench} measured: per workload its tables, ratios against targets and profiles. */
public final class BenchReport {

    private final PrintWriter out;
    private final BenchRunner.Settings settings;

    public BenchReport(PrintWriter out, BenchRunner.Settings settings) {
        this.out = out;
        this.settings = settings;
    }

    /** The workload's tables, ratios and targets. */
    public void print(WorkloadOutcome outcome) {
        out.printf(
                Locale.ROOT,
                "%nworkload %s: %,d records, %,.1f MB in record values; %s%n",
                outcome.workload().label(),
                outcome.records(),
                outcome.bytes() / 1e6,
                outcome.workload().description());
        out.printf(
                "parallelism %d, checkpoint every %s, exactly-once; each contender in its own JVM; rates over the"
                        + " topic's records and value bytes%n",
                settings.parallelism(), settings.checkpointInterval());
        TextTable table = new TextTable("contender", "records", "time s", "MB/s", "blobs/s", "CPU s", "peak RSS MiB");
        for (ContenderFigures contender : outcome.contenders()) {
            table.add(
                    contender.contender(),
                    String.format(Locale.ROOT, "%,d", contender.records()),
                    String.format(Locale.ROOT, "%.1f", contender.work().toMillis() / 1000.0),
                    String.format(Locale.ROOT, "%.1f", outcome.megabytesPerSecond(contender)),
                    String.format(Locale.ROOT, "%,.0f", outcome.blobsPerSecond(contender)),
                    String.format(Locale.ROOT, "%.1f", contender.cpu().toMillis() / 1000.0),
                    String.format(Locale.ROOT, "%,.0f", contender.peakResidentBytes() / (1024.0 * 1024.0)));
        }
        table.print(out);
        printSteady(outcome);
        ReadFigures read = outcome.read();
        out.printf(
                Locale.ROOT,
                "read side: %,d random Packed descriptors of %,d (%,.1f MB), %,d verified by crc32c;"
                        + " median of %d rounds (the ways alternating) after a warm-up, page cache warm%n",
                read.blobs(),
                read.packedBlobs(),
                read.bytes() / 1e6,
                read.verified(),
                ReadFigures.TIMED_ROUNDS);
        TextTable reads = new TextTable("read", "time ms", "I/O requests");
        reads.add(
                batchesLabel(ObjectLayer.DEFAULT_HOLE_LIMIT),
                millis(read.batch().time()),
                Long.toString(read.batch().requests()));
        reads.add(
                "ObjectLayer, one at a time",
                millis(read.single().time()),
                Long.toString(read.single().requests()));
        reads.add(
                "raw positional reads",
                millis(read.raw().time()),
                Long.toString(read.raw().requests()));
        for (ReadFigures.HoleLimitWay wider : read.widerHoles()) {
            reads.add(
                    batchesLabel(wider.holeLimit()),
                    millis(wider.way().time()),
                    Long.toString(wider.way().requests()));
        }
        reads.print(out);
        boolean consumeTarget = outcome.workload() == BenchWorkload.MIXED || outcome.workload() == BenchWorkload.FRAMES;
        boolean requestsTarget = outcome.workload() == BenchWorkload.SMALL;
        out.printf(
                Locale.ROOT,
                "ratios: blob-ingest/consume %.2f (target >= %.1f%s), blob-ingest/filesink %.2f (target >= %.1f: %s),"
                        + " batch/raw read time %.2f (target <= %.1f: %s), requests one-at-a-time/batch %.0f (target"
                        + " >= %.0f%s)%n",
                outcome.ingestVsConsume(),
                WorkloadOutcome.TARGET_INGEST_VS_CONSUME,
                consumeTarget
                        ? ": " + met(outcome.ingestVsConsume() >= WorkloadOutcome.TARGET_INGEST_VS_CONSUME)
                        : " on mixed and frames",
                outcome.ingestVsFilesink(),
                WorkloadOutcome.TARGET_INGEST_VS_FILESINK,
                met(outcome.ingestVsFilesink() >= WorkloadOutcome.TARGET_INGEST_VS_FILESINK),
                read.batchVsRaw(),
                WorkloadOutcome.TARGET_READ_VS_RAW,
                met(read.batchVsRaw() <= WorkloadOutcome.TARGET_READ_VS_RAW),
                read.requestsSingleVsBatch(),
                WorkloadOutcome.TARGET_READ_REQUESTS_RATIO,
                requestsTarget
                        ? ": " + met(read.requestsSingleVsBatch() >= WorkloadOutcome.TARGET_READ_REQUESTS_RATIO)
                        : " on small");
        fleetLine(outcome).ifPresent(out::println);
        outcome.sharing().ifPresent(sharing -> printSharing(outcome, sharing));
        outcome.s3Read().ifPresent(this::printS3);
        printFreshness(outcome);
        out.println(outcome.resultLine());
        out.println(outcome.streamingResultLine());
        out.flush();
    }

    /** The fleet comparison's times and ratio, if this run made it ({@code --topics}). */
    Optional<String> fleetLine(WorkloadOutcome outcome) {
        return outcome.fleet()
                .map(fleet -> String.format(
                        Locale.ROOT,
                        "fleet: the same records again, round-robin over %d topics of %d partitions, blob-ingest on"
                                + " all of them as one job (--input-topic a,b,...), bounded: %.1f s against %.1f s on"
                                + " one topic; fleet/one topic %.2f (bytes/s, whole run; above 1 the fleet is faster)",
                        fleet.topics(),
                        settings.parallelism(),
                        fleet.contender().work().toMillis() / 1000.0,
                        outcome.ingest().work().toMillis() / 1000.0,
                        outcome.fleetVsOneTopic().orElseThrow()));
    }

    private void printSteady(WorkloadOutcome outcome) {
        out.printf(
                Locale.ROOT,
                "steady phase: from the first commit of input at or past %.0f%% of the topic's bytes to the first"
                        + " at or past %.0f%% (Flink jobs: completed checkpoints; consume: every poll), committed"
                        + " offsets and the JVM's"
                        + " CPU sampled every %d ms from outside%n",
                SteadyFigures.FROM_FRACTION * 100,
                SteadyFigures.TO_FRACTION * 100,
                BenchRunner.STEADY_SAMPLE_PERIOD.toMillis());
        TextTable table = new TextTable(
                "contender",
                "window s",
                "window MB",
                "steady MB/s",
                "whole-run MB/s",
                "steady CPU s/GB",
                "whole-run CPU s/GB");
        for (ContenderFigures contender : outcome.contenders()) {
            Optional<SteadyFigures> steady = outcome.steady(contender);
            table.add(
                    contender.contender(),
                    steady.map(s -> String.format(Locale.ROOT, "%.1f", s.time().toMillis() / 1000.0))
                            .orElse(WorkloadOutcome.NOT_MEASURED),
                    steady.map(s -> String.format(Locale.ROOT, "%,.1f", s.bytes() / 1e6))
                            .orElse(WorkloadOutcome.NOT_MEASURED),
                    steady.map(s -> String.format(Locale.ROOT, "%.1f", s.megabytesPerSecond()))
                            .orElse(WorkloadOutcome.NOT_MEASURED),
                    String.format(Locale.ROOT, "%.1f", outcome.megabytesPerSecond(contender)),
                    steady.map(s -> String.format(Locale.ROOT, "%.1f", s.cpuSecondsPerGigabyte()))
                            .orElse(WorkloadOutcome.NOT_MEASURED),
                    String.format(Locale.ROOT, "%.1f", contender.cpu().toMillis() / 1000.0 / (outcome.bytes() / 1e9)));
        }
        table.print(out);
        DiskFigures disk = outcome.disk();
        out.printf(
                Locale.ROOT,
                "disk: the same %,.1f MB written sequentially to the same directory, 1 MiB writes: %.1f MB/s ended by"
                        + " an fsync, %.1f MB/s without (page cache); blob-ingest steady/disk %s (target >= %.1f where"
                        + " the input outgrows the page cache), steady/page cache %s%n",
                disk.bytes() / 1e6,
                disk.syncedMegabytesPerSecond(),
                disk.unsyncedMegabytesPerSecond(),
                outcome.steadyVsDisk()
                        .map(r -> String.format(Locale.ROOT, "%.2f", r))
                        .orElse(WorkloadOutcome.NOT_MEASURED),
                WorkloadOutcome.TARGET_STEADY_VS_DISK,
                outcome.steadyVsPageCache()
                        .map(r -> String.format(Locale.ROOT, "%.2f", r))
                        .orElse(WorkloadOutcome.NOT_MEASURED));
        boolean consumeTarget = outcome.workload() == BenchWorkload.FRAMES;
        out.printf(
                Locale.ROOT,
                "steady ratios: blob-ingest/filesink %s (target >= %.1f: %s), blob-ingest/consume %s (target >="
                        + " %.1f%s)%n",
                outcome.steadyVsFilesink()
                        .map(r -> String.format(Locale.ROOT, "%.2f", r))
                        .orElse(WorkloadOutcome.NOT_MEASURED),
                WorkloadOutcome.TARGET_STEADY_VS_FILESINK,
                outcome.steadyVsFilesink()
                        .map(r -> met(r >= WorkloadOutcome.TARGET_STEADY_VS_FILESINK))
                        .orElse(WorkloadOutcome.NOT_MEASURED),
                outcome.steadyVsConsume()
                        .map(r -> String.format(Locale.ROOT, "%.2f", r))
                        .orElse(WorkloadOutcome.NOT_MEASURED),
                WorkloadOutcome.TARGET_STEADY_VS_CONSUME,
                consumeTarget
                        ? ": "
                                + outcome.steadyVsConsume()
                                        .map(r -> met(r >= WorkloadOutcome.TARGET_STEADY_VS_CONSUME))
                                        .orElse(WorkloadOutcome.NOT_MEASURED)
                        : " on frames");
    }

    private void printSharing(WorkloadOutcome outcome, SharingFigures sharing) {
        out.printf(
                Locale.ROOT,
                "exact sharing: %,.1f MB of blobs in the input (%,.1f MB in record values, %,.1f MB in External"
                        + " files), %,d of the %,d records (%.1f%%) exact duplicates of an earlier one; the distinct"
                        + " blobs are %,.1f MB, %.3f of the input (the ideal stored/input). blob-ingest once per mode,"
                        + " unbounded (as in every earlier round), timed from its start to its last"
                        + " descriptor committed%n",
                sharing.inputBytes() / 1e6,
                outcome.bytes() / 1e6,
                (sharing.inputBytes() - outcome.bytes()) / 1e6,
                sharing.duplicateRecords(),
                outcome.records(),
                100.0 * sharing.duplicateRecords() / outcome.records(),
                sharing.uniqueBytes() / 1e6,
                sharing.uniqueVsInput());
        TextTable table = new TextTable(
                "sharing",
                "time s",
                "MB/s",
                "vs off",
                "steady MB/s",
                "steady vs off",
                "CPU s",
                "stored MB",
                "stored/input",
                "stored/unique",
                "shared rows",
                "read batch/raw");
        for (SharingFigures.Run run : sharing.runs()) {
            boolean off = run.mode() == ExactSharing.OFF;
            Optional<SteadyFigures> steady = outcome.steady(run.contender());
            table.add(
                    run.mode().toString(),
                    String.format(Locale.ROOT, "%.1f", run.contender().work().toMillis() / 1000.0),
                    String.format(Locale.ROOT, "%.1f", outcome.megabytesPerSecond(run.contender())),
                    off ? "-" : String.format(Locale.ROOT, "%.2f", outcome.sharingVsOff(run)),
                    steady.map(s -> String.format(Locale.ROOT, "%.1f", s.megabytesPerSecond()))
                            .orElse(WorkloadOutcome.NOT_MEASURED),
                    off
                            ? "-"
                            : outcome.steadySharingVsOff(run)
                                    .map(r -> String.format(Locale.ROOT, "%.2f", r))
                                    .orElse(WorkloadOutcome.NOT_MEASURED),
                    String.format(Locale.ROOT, "%.1f", run.contender().cpu().toMillis() / 1000.0),
                    String.format(Locale.ROOT, "%,.1f", run.stored().sidecarBytes() / 1e6),
                    String.format(Locale.ROOT, "%.3f", sharing.storedVsInput(run)),
                    String.format(Locale.ROOT, "%.3f", sharing.storedVsUnique(run)),
                    String.format(Locale.ROOT, "%,d", run.stored().sharedRows()),
                    String.format(Locale.ROOT, "%.2f", run.read().batchVsRaw()));
        }
        table.print(out);
        StringBuilder targets = new StringBuilder("sharing targets: bytes/s >= "
                + String.format(Locale.ROOT, "%.1f", WorkloadOutcome.TARGET_SHARING_VS_OFF) + "x sharing off's");
        for (SharingFigures.Run run : sharing.sharing()) {
            double whole = outcome.sharingVsOff(run);
            Optional<Double> steady = outcome.steadySharingVsOff(run);
            targets.append(String.format(
                    Locale.ROOT,
                    ", %s %.2f whole run (%s) and %s steady (%s)",
                    run.mode(),
                    whole,
                    met(whole >= WorkloadOutcome.TARGET_SHARING_VS_OFF),
                    steady.map(r -> String.format(Locale.ROOT, "%.2f", r)).orElse(WorkloadOutcome.NOT_MEASURED),
                    steady.map(r -> met(r >= WorkloadOutcome.TARGET_SHARING_VS_OFF))
                            .orElse(WorkloadOutcome.NOT_MEASURED)));
        }
        sharing.run(ExactSharing.WITHIN_JOB)
                .ifPresent(job -> targets.append(String.format(
                        Locale.ROOT,
                        "; %s stored bytes within %.0f%% of the distinct blobs' bytes: %.3f (%s)",
                        job.mode(),
                        (WorkloadOutcome.TARGET_STORED_VS_UNIQUE - 1) * 100,
                        sharing.storedVsUnique(job),
                        met(sharing.storedVsUnique(job) <= WorkloadOutcome.TARGET_STORED_VS_UNIQUE))));
        out.println(targets);
    }

    private void printFreshness(WorkloadOutcome outcome) {
        if (outcome.freshness().isEmpty()) {
            return;
        }
        out.printf(
                Locale.ROOT,
                "freshness: blob-ingest unbounded, input produced at %.1f MB/s (half its steady rate), produce"
                        + " timestamp to descriptor visible to a read_committed consumer%n",
                outcome.freshness().get(0).bytesPerSecond() / 1e6);
        TextTable table = new TextTable(
                "checkpoint interval",
                "records",
                "p50 ms",
                "p99 ms",
                "max ms",
                "p99/interval",
                "target p99 <= interval + " + WorkloadOutcome.TARGET_FRESHNESS_SLACK.toSeconds() + " s");
        for (FreshnessFigures figures : outcome.freshness()) {
            table.add(
                    TimeUtils.formatWithHighestUnit(figures.interval()),
                    String.format(Locale.ROOT, "%,d", figures.records()),
                    Long.toString(figures.p50().toMillis()),
                    Long.toString(figures.p99().toMillis()),
                    Long.toString(figures.max().toMillis()),
                    String.format(Locale.ROOT, "%.2f", figures.p99OverInterval()),
                    met(figures.p99().compareTo(figures.interval().plus(WorkloadOutcome.TARGET_FRESHNESS_SLACK)) <= 0));
        }
        table.print(out);
    }

    private void printS3(S3ReadFigures s3) {
        out.printf(
                Locale.ROOT,
                "read side over s3:// (S3Proxy in the read side's JVM behind a proxy adding %d ms before each"
                        + " response's first byte, %s): the same %,d descriptors (%,.1f MB) in %,d objects, %,d"
                        + " verified by"
                        + " crc32c; median of %d rounds after a warm-up%n",
                s3.delay().toMillis(),
                s3.bandwidth() > 0
                        ? String.format(Locale.ROOT, "at most %.0f MB/s", s3.bandwidth() / 1e6)
                        : "no bandwidth cap",
                s3.blobs(),
                s3.bytes() / 1e6,
                s3.objects(),
                s3.verified(),
                S3ReadFigures.TIMED_ROUNDS);
        TextTable reads = new TextTable("read over s3://", "time ms", "requests", "MB/s");
        ReadTuning tuning = ReadTuning.OBJECT_STORE;
        reads.add(
                "ObjectLayer.readAll, batches (S3 tuning: hole limit " + tuning.holeLimit() / 1024 + " KiB, "
                        + tuning.readsInFlight() + " reads in flight)",
                millis(s3.batch().time()),
                Long.toString(s3.batch().requests()),
                rate(s3.bytes(), s3.batch().time()));
        for (ReadFigures.HoleLimitWay way : s3.holeLimits()) {
            reads.add(
                    "ObjectLayer.readAll, batches (S3 tuning, hole limit " + way.holeLimit() / 1024 + " KiB)",
                    millis(way.way().time()),
                    Long.toString(way.way().requests()),
                    rate(s3.bytes(), way.way().time()));
        }
        reads.add(
                "ObjectLayer.readAll, batches (local disk's tuning; one round)",
                millis(s3.localTuning().time()),
                Long.toString(s3.localTuning().requests()),
                rate(s3.bytes(), s3.localTuning().time()));
        reads.add(
                "Lance-style (" + S3ReadFigures.LANCE_BLOCK_SIZE / 1024 + " KiB blocks, "
                        + S3ReadFigures.LANCE_MAX_IOP_SIZE / (1024 * 1024) + " MiB requests, "
                        + S3ReadFigures.LANCE_IO_PARALLELISM + " in flight)",
                millis(s3.lanceStyle().time()),
                Long.toString(s3.lanceStyle().requests()),
                rate(s3.bytes(), s3.lanceStyle().time()));
        reads.add(
                "ObjectLayer, one at a time (" + s3.singleMeasured() + " read, scaled)",
                millis(s3.single().time()),
                Long.toString(s3.single().requests()),
                rate(s3.bytes(), s3.single().time()));
        reads.add(
                "ideal (bytes / bandwidth + a round trip per wave of " + S3ReadFigures.LANCE_IO_PARALLELISM + ")",
                millis(s3.ideal()),
                "-",
                rate(s3.bytes(), s3.ideal()));
        reads.print(out);
        out.printf(
                Locale.ROOT,
                "ratios over s3://: one-at-a-time/batch %.0f (target >= %.0f: %s), batch/ideal %.2f (target <= %.1f:"
                        + " %s),"
                        + " batch/Lance-style %.2f (target <= %.1f: %s) with %s requests%n",
                s3.batchSpeedup(),
                WorkloadOutcome.TARGET_S3_BATCH_SPEEDUP,
                met(s3.batchSpeedup() >= WorkloadOutcome.TARGET_S3_BATCH_SPEEDUP),
                s3.batchVsIdeal(),
                WorkloadOutcome.TARGET_S3_VS_IDEAL,
                met(s3.batchVsIdeal() <= WorkloadOutcome.TARGET_S3_VS_IDEAL),
                s3.batchVsLanceStyle(),
                WorkloadOutcome.TARGET_S3_VS_LANCE_STYLE,
                met(s3.batchVsLanceStyle() <= WorkloadOutcome.TARGET_S3_VS_LANCE_STYLE),
                s3.batch().requests() < s3.lanceStyle().requests() ? "fewer" : "NOT fewer");
    }

    private static String rate(long bytes, Duration time) {
        return String.format(Locale.ROOT, "%.1f", bytes / 1e6 / Math.max(time.toNanos() / 1e9, 1e-9));
    }

    private static String batchesLabel(long holeLimit) {
        return "ObjectLayer.readAll, batches (hole limit " + holeLimit / 1024 + " KiB)";
    }

    /** Where each child's CPU went, by category: the first part of its profile summary. */
    public void printProfiles(WorkloadOutcome outcome, ChildJvm children) throws IOException {
        List<String> profiled = new ArrayList<>();
        outcome.contenders().forEach(contender -> profiled.add(contender.contender()));
        profiled.add(ContenderMain.READ_SIDE);
        outcome.sharing()
                .ifPresent(sharing ->
                        sharing.sharing().forEach(run -> profiled.add(BenchRunner.readSideName(run.mode()))));
        profiled.add(ContenderMain.READ_SIDE_S3);
        for (String contender : profiled) {
            Optional<Path> summary = children.profileSummary(contender);
            if (summary.isPresent()) {
                out.println();
                Files.readAllLines(summary.get(), StandardCharsets.UTF_8).stream()
                        .takeWhile(line -> !line.isBlank())
                        .forEach(out::println);
                out.println("  (all of it: " + summary.get() + ")");
            }
        }
        out.flush();
    }

    private static String millis(Duration duration) {
        return String.format(Locale.ROOT, "%.1f", duration.toNanos() / 1e6);
    }

    private static String met(boolean met) {
        return met ? "met" : "NOT met";
    }
}
