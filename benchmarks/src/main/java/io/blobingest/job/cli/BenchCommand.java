package io.blobingest.job.cli;

import io.blobingest.job.bench.BenchWorkload;
import io.blobingest.job.bench.ContenderFigures;
import io.blobingest.job.bench.ReadFigures;
import io.blobingest.job.bench.WorkloadOutcome;
import io.blobingest.job.bench.internal.BenchRunner;
import io.blobingest.job.bench.internal.ChildJvm;
import io.blobingest.job.bench.internal.ContenderMain;
import io.blobingest.job.demo.QuietLogs;
import io.blobingest.job.internal.OwnedDirectory;
import io.blobingest.kafka.embedded.EmbeddedKafkaBroker;
import io.blobingest.objectlayer.ObjectLayer;
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

    @Spec CommandSpec spec;

    @Option(names = "--workload", defaultValue = "all",
            description = "mixed, small, frames or all (default: ${DEFAULT-VALUE}).")
    String workload;

    @Option(names = "--bytes", defaultValue = "2gb",
            description = "Record value bytes preloaded per workload (default: ${DEFAULT-VALUE}).")
    String bytes;

    @Option(names = "--parallelism", defaultValue = "2",
            description = "Parallelism of every contender; also the input topic's partitions (default: ${DEFAULT-VALUE}).")
    int parallelism;

    @Option(names = "--checkpoint-interval", defaultValue = "2s",
            description = "Checkpoint interval of both Flink jobs, exactly-once (default: ${DEFAULT-VALUE}).")
    String checkpointInterval;

    @Option(names = "--read-sample", defaultValue = "10000",
            description = "Random Packed descriptors the read side reads (default: ${DEFAULT-VALUE}).")
    int readSample;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the workloads and the read sample (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--output", defaultValue = "bench-output",
            description = "Directory for everything the contenders write, their logs and profiles; emptied first"
                    + " if an earlier bench made it (default: ${DEFAULT-VALUE}).")
    Path output;

    @Option(names = "--profile",
            description = "Sample every contender's threads with async-profiler (kernel, GC and JIT included; linux-x64)"
                    + " and print where its CPU time went; flame graphs and summaries beside the contenders' logs.")
    boolean profile;

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
                    if (profile) {
                        printProfiles(runner.children(workload));
                    }
                }
            }
        }
        List<String> problems = outcomes.stream().flatMap(outcome -> outcome.problems().stream()).toList();
        out.printf(Locale.ROOT, "%nbench: %d workload(s) in %.1f s, output in %s%n",
                outcomes.size(), (System.nanoTime() - started) / 1e9, directory);
        problems.forEach(problem -> out.println("FAILED " + problem));
        outcomes.forEach(outcome -> out.println(outcome.resultLine()));
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
        throw new ParameterException(spec.commandLine(),
                "--workload must be mixed, small, frames or all, found '" + workload + "'");
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
            throw new ParameterException(spec.commandLine(),
                    "--checkpoint-interval: not a duration: '" + checkpointInterval + "' (e.g. 2s, 1min)");
        }
        return new BenchRunner.Settings(preload, parallelism, checkpointInterval, readSample, seed, profile);
    }

    private void print(WorkloadOutcome outcome) {
        out.printf(Locale.ROOT, "%nworkload %s: %,d records, %,.1f MB in record values; %s%n",
                outcome.workload().label(), outcome.records(), outcome.bytes() / 1e6, outcome.workload().description());
        out.printf("parallelism %d, checkpoint every %s, exactly-once; each contender in its own JVM; rates over the"
                + " topic's records and value bytes%n", parallelism, checkpointInterval);
        TextTable table = new TextTable("contender", "records", "time s", "MB/s", "blobs/s", "CPU s", "peak RSS MiB");
        for (ContenderFigures contender : outcome.contenders()) {
            table.add(contender.contender(),
                    String.format(Locale.ROOT, "%,d", contender.records()),
                    String.format(Locale.ROOT, "%.1f", contender.work().toMillis() / 1000.0),
                    String.format(Locale.ROOT, "%.1f", outcome.megabytesPerSecond(contender)),
                    String.format(Locale.ROOT, "%,.0f", outcome.blobsPerSecond(contender)),
                    String.format(Locale.ROOT, "%.1f", contender.cpu().toMillis() / 1000.0),
                    String.format(Locale.ROOT, "%,.0f", contender.peakResidentBytes() / (1024.0 * 1024.0)));
        }
        table.print(out);
        ReadFigures read = outcome.read();
        out.printf(Locale.ROOT, "read side: %,d random Packed descriptors of %,d (%,.1f MB), %,d verified by crc32c;"
                        + " median of %d rounds (the ways alternating) after a warm-up, page cache warm%n",
                read.blobs(), read.packedBlobs(), read.bytes() / 1e6, read.verified(), ReadFigures.TIMED_ROUNDS);
        TextTable reads = new TextTable("read", "time ms", "I/O requests");
        reads.add(batchesLabel(ObjectLayer.DEFAULT_HOLE_LIMIT), millis(read.batch().time()), Long.toString(read.batch().requests()));
        reads.add("ObjectLayer, one at a time", millis(read.single().time()), Long.toString(read.single().requests()));
        reads.add("raw positional reads", millis(read.raw().time()), Long.toString(read.raw().requests()));
        for (ReadFigures.HoleLimitWay wider : read.widerHoles()) {
            reads.add(batchesLabel(wider.holeLimit()), millis(wider.way().time()), Long.toString(wider.way().requests()));
        }
        reads.print(out);
        boolean consumeTarget = outcome.workload() != BenchWorkload.SMALL;
        boolean requestsTarget = outcome.workload() == BenchWorkload.SMALL;
        out.printf(Locale.ROOT, "ratios: blob-ingest/consume %.2f (target >= %.1f%s), blob-ingest/filesink %.2f (target >= %.1f: %s),"
                        + " batch/raw read time %.2f (target <= %.1f: %s), requests one-at-a-time/batch %.0f (target >= %.0f%s)%n",
                outcome.ingestVsConsume(), WorkloadOutcome.TARGET_INGEST_VS_CONSUME,
                consumeTarget ? ": " + met(outcome.ingestVsConsume() >= WorkloadOutcome.TARGET_INGEST_VS_CONSUME) : " on mixed and frames",
                outcome.ingestVsFilesink(), WorkloadOutcome.TARGET_INGEST_VS_FILESINK,
                met(outcome.ingestVsFilesink() >= WorkloadOutcome.TARGET_INGEST_VS_FILESINK),
                read.batchVsRaw(), WorkloadOutcome.TARGET_READ_VS_RAW, met(read.batchVsRaw() <= WorkloadOutcome.TARGET_READ_VS_RAW),
                read.requestsSingleVsBatch(), WorkloadOutcome.TARGET_READ_REQUESTS_RATIO,
                requestsTarget ? ": " + met(read.requestsSingleVsBatch() >= WorkloadOutcome.TARGET_READ_REQUESTS_RATIO) : " on small");
        out.println(outcome.resultLine());
        out.flush();
    }

    private static String batchesLabel(long holeLimit) {
        return "ObjectLayer.readAll, batches (hole limit " + holeLimit / 1024 + " KiB)";
    }

    /** Where each contender's CPU went, by category: the first part of its profile summary. */
    private void printProfiles(ChildJvm children) throws IOException {
        for (String contender : List.of(ContenderMain.CONSUME, ContenderMain.FILESINK, ContenderMain.INGEST,
                ContenderMain.READ_SIDE)) {
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
