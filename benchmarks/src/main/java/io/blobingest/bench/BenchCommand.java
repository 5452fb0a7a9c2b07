package io.blobingest.bench;

import io.blobingest.bench.internal.BenchRunner;
import io.blobingest.bench.internal.ChildJvm;
import io.blobingest.bench.internal.ContenderMain;
import io.blobingest.broker.EmbeddedKafkaBroker;
import io.blobingest.cli.BlobIngestCli;
import io.blobingest.cli.OwnedDirectory;
import io.blobingest.cli.TextTable;
import io.blobingest.cli.demo.QuietLogs;
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
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.TimeUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench}: blob-ingest against a plain Kafka consumer (the ceiling) and a KafkaSource-to-FileSink
 * job (the alternative) on the same preloaded topic, then the read side on what blob-ingest wrote.
 * Every contender runs in a JVM of its own; this JVM only hosts the Kafka broker and reports. See
 * docs/benchmarks.md.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Measure blob-ingest against a plain Kafka consumer and a KafkaSource-to-FileSink job on the"
                + " same preloaded topic (local disk, in-process Kafka broker), then batch reads against raw"
                + " positional reads. Prints a table and one RESULT line per workload.")
public final class BenchCommand implements Callable<Integer> {

    private static final String MARKER = ".blob-ingest-bench";

    @Spec
    CommandSpec spec;

    @Option(
            names = "--workload",
            defaultValue = "all",
            description = "mixed, small, frames, duplicates or all (default: ${DEFAULT-VALUE}).")
    String workload;

    @Option(
            names = "--bytes",
            defaultValue = "2gb",
            description = "Record value bytes preloaded per workload (default: ${DEFAULT-VALUE}).")
    String bytes;

    @Option(
            names = "--parallelism",
            defaultValue = "2",
            description =
                    "Parallelism of every contender; also the input topic's partitions (default: ${DEFAULT-VALUE}).")
    int parallelism;

    @Option(
            names = "--checkpoint-interval",
            defaultValue = "2s",
            description = "Checkpoint interval of both Flink jobs, exactly-once (default: ${DEFAULT-VALUE}).")
    String checkpointInterval;

    @Option(
            names = "--read-sample",
            defaultValue = "10000",
            description = "Random Packed descriptors the read side reads (default: ${DEFAULT-VALUE}).")
    int readSample;

    @Option(
            names = "--seed",
            defaultValue = "42",
            description = "Seed of the workloads and the read sample (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--output",
            defaultValue = "bench-output",
            description = "Directory for everything the contenders write, their logs and profiles; emptied first"
                    + " if an earlier bench made it (default: ${DEFAULT-VALUE}).")
    Path output;

    @Option(
            names = "--profile",
            description =
                    "Sample every contender's threads with async-profiler (kernel, GC and JIT included; linux-x64)"
                            + " and print where its CPU time went; flame graphs and summaries beside the contenders'"
                            + " logs.")
    boolean profile;

    @Option(
            names = "--profile-wall",
            description = "Like --profile, but sample wall-clock time: every thread whether it runs or waits, so what a"
                    + " task thread waits for (a checkpoint, a lock, I/O) shows, not only what it computes.")
    boolean profileWall;

    @Option(
            names = "--s3",
            description = "Also read the small and frames workloads' sample back over s3://: an S3 server in the read"
                    + " side's JVM behind a latency-injecting proxy; Object Layer batches, one at a time, Lance's"
                    + " scheduler as a baseline, and the ideal.")
    boolean s3;

    @Option(
            names = "--s3-latency",
            defaultValue = "20ms",
            description = "With --s3: the proxy's delay before each response's first byte (default: ${DEFAULT-VALUE}).")
    String s3Latency;

    @Option(
            names = "--s3-bandwidth",
            defaultValue = "0",
            description = "With --s3: the proxy's bandwidth cap over all connections, e.g. 200mb (per second); 0 for"
                    + " none (default: ${DEFAULT-VALUE}).")
    String s3Bandwidth;

    @Option(
            names = "--freshness",
            description = "Also measure freshness on the small and frames workloads: blob-ingest unbounded, records"
                    + " produced at half its steady rate, produce timestamp to descriptor visible to a read_committed"
                    + " consumer, p50/p99/max, at each of --freshness-intervals.")
    boolean freshness;

    @Option(
            names = "--freshness-intervals",
            defaultValue = "1s,2s,10s",
            split = ",",
            description = "With --freshness: the checkpoint intervals to measure at (default: ${DEFAULT-VALUE}).")
    List<String> freshnessIntervals;

    private PrintWriter out;
    private PrintWriter err;

    @Override
    public Integer call() throws Exception {
        out = spec.commandLine().getOut();
        err = spec.commandLine().getErr();
        Set<BenchWorkload> workloads = workloads();
        BenchRunner.Settings settings = settings();
        Path directory;
        try {
            directory = OwnedDirectory.prepare(output, MARKER, "./blob-ingest bench");
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--output: " + e.getMessage());
        }
        long started = System.nanoTime();
        List<WorkloadOutcome> outcomes = new ArrayList<>();
        try (QuietLogs quiet = QuietLogs.whileTheDemoRuns()) {
            err.println("starting Kafka (KRaft, one combined node) ...");
            try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
                BenchRunner runner = new BenchRunner(broker, settings, directory, err);
                for (BenchWorkload workload : workloads) {
                    WorkloadOutcome outcome = runner.run(workload);
                    outcomes.add(outcome);
                    print(outcome);
                    if (profile || profileWall) {
                        printProfiles(outcome, runner.children(workload));
                    }
                }
            }
        }
        List<String> problems = outcomes.stream()
                .flatMap(outcome -> outcome.problems().stream())
                .toList();
        out.printf(
                Locale.ROOT,
                "%nbench: %d workload(s) in %.1f s, output in %s%n",
                outcomes.size(),
                (System.nanoTime() - started) / 1e9,
                directory);
        problems.forEach(problem -> out.println("FAILED " + problem));
        outcomes.forEach(outcome -> out.println(outcome.resultLine()));
        outcomes.forEach(outcome -> out.println(outcome.streamingResultLine()));
        out.flush();
        return problems.isEmpty() ? BlobIngestCli.EXIT_OK : BlobIngestCli.EXIT_FAULT;
    }

    private Set<BenchWorkload> workloads() {
        if (workload.equals("all")) {
            return EnumSet.allOf(BenchWorkload.class);
        }
        for (BenchWorkload candidate : BenchWorkload.values()) {
            if (candidate.label().equals(workload)) {
                return EnumSet.of(candidate);
            }
        }
        throw new ParameterException(
                spec.commandLine(),
                "--workload must be mixed, small, frames, duplicates or all, found '" + workload + "'");
    }

    private BenchRunner.Settings settings() {
        long preload;
        try {
            preload = MemorySize.parse(bytes).getBytes();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--bytes: not a size: '" + bytes + "' (e.g. 64mb, 1gb)");
        }
        if (preload < 1) {
            throw new ParameterException(spec.commandLine(), "--bytes must be at least 1 byte, found " + bytes);
        }
        if (parallelism < 1) {
            throw new ParameterException(spec.commandLine(), "--parallelism must be >= 1, found " + parallelism);
        }
        if (readSample < 1) {
            throw new ParameterException(spec.commandLine(), "--read-sample must be >= 1, found " + readSample);
        }
        try {
            TimeUtils.parseDuration(checkpointInterval);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--checkpoint-interval: not a duration: '" + checkpointInterval + "' (e.g. 2s, 1min)");
        }
        return new BenchRunner.Settings(
                preload,
                parallelism,
                checkpointInterval,
                readSample,
                seed,
                profile || profileWall,
                profileWall,
                s3Settings(),
                freshnessIntervals());
    }

    private List<Duration> freshnessIntervals() {
        if (!freshness) {
            return List.of();
        }
        List<Duration> intervals = new ArrayList<>();
        for (String interval : freshnessIntervals) {
            try {
                intervals.add(TimeUtils.parseDuration(interval.strip()));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--freshness-intervals: not a duration: '" + interval + "' (e.g. 1s,2s,10s)");
            }
        }
        return intervals;
    }

    private Optional<BenchRunner.S3Settings> s3Settings() {
        if (!s3) {
            return Optional.empty();
        }
        Duration latency;
        try {
            latency = TimeUtils.parseDuration(s3Latency);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(
                    spec.commandLine(), "--s3-latency: not a duration: '" + s3Latency + "' (e.g. 20ms)");
        }
        long bandwidth;
        try {
            bandwidth = MemorySize.parse(s3Bandwidth).getBytes();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(
                    spec.commandLine(), "--s3-bandwidth: not a size: '" + s3Bandwidth + "' (e.g. 200mb, 0)");
        }
        return Optional.of(new BenchRunner.S3Settings(latency, bandwidth));
    }

    private void print(WorkloadOutcome outcome) {
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
                parallelism, checkpointInterval);
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
        outcome.sharing().ifPresent(sharing -> printSharing(outcome, sharing));
        outcome.s3Read().ifPresent(this::printS3);
        printFreshness(outcome);
        out.println(outcome.resultLine());
        out.println(outcome.streamingResultLine());
        out.flush();
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
    private void printProfiles(WorkloadOutcome outcome, ChildJvm children) throws IOException {
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
