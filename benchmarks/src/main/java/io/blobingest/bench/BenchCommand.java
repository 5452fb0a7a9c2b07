package io.blobingest.bench;

import io.blobingest.bench.internal.BenchReport;
import io.blobingest.bench.internal.BenchRunner;
import io.blobingest.broker.EmbeddedKafkaBroker;
import io.blobingest.cli.BlobIngestCli;
import io.blobingest.cli.OwnedDirectory;
import io.blobingest.cli.demo.QuietLogs;
import java.io.PrintWriter;
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
            names = "--topics",
            defaultValue = "1",
            description = "With N > 1: also preload the same records round-robin over N topics of --parallelism"
                    + " partitions each and run blob-ingest once more, one job on all N, against the run on one"
                    + " topic (needs 2 x --bytes more free) (default: ${DEFAULT-VALUE}).")
    int topics;

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
                BenchReport report = new BenchReport(out, settings);
                for (BenchWorkload workload : workloads) {
                    WorkloadOutcome outcome = runner.run(workload);
                    outcomes.add(outcome);
                    report.print(outcome);
                    if (settings.profile()) {
                        report.printProfiles(outcome, runner.children(workload));
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

    /** What the options ask for; a usage error for an option out of range. */
    BenchRunner.Settings settings() {
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
        if (topics < 1) {
            throw new ParameterException(spec.commandLine(), "--topics must be >= 1, found " + topics);
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
                topics,
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
}
