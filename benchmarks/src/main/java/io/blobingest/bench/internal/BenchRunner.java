package io.blobingest.bench.internal;

import io.blobingest.bench.BenchWorkload;
import io.blobingest.bench.ContenderFigures;
import io.blobingest.bench.DiskFigures;
import io.blobingest.bench.FleetFigures;
import io.blobingest.bench.FreshnessFigures;
import io.blobingest.bench.ReadFigures;
import io.blobingest.bench.S3ReadFigures;
import io.blobingest.bench.SharingFigures;
import io.blobingest.bench.SteadyFigures;
import io.blobingest.bench.StoredFigures;
import io.blobingest.bench.WorkloadOutcome;
import io.blobingest.broker.EmbeddedKafkaBroker;
import io.blobingest.cli.OwnedDirectory;
import io.blobingest.cli.demo.DemoProducer;
import io.blobingest.cli.demo.ExternalFiles;
import io.blobingest.job.IngestJobOptions;
import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.RawPackSinkOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import org.apache.flink.util.TimeUtils;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Runs one workload: preloads its input topic once, then runs every contender on it, each in a
 * child JVM ({@link ChildJvm}), one after the other, and the read side on what blob-ingest wrote;
 * with {@code --topics N}, also blob-ingest on the same records spread over N topics.
 */
public final class BenchRunner {

    /** Where the small workload's blobs stop being Inline: below its smallest blob, so all are Packed. */
    public static final String SMALL_INLINE_MAX_SIZE = "1kb";

    private static final int SMALL_MIN = 4 * 1024;
    private static final int SMALL_MAX = 64 * 1024;
    private static final int FRAMES_MIN = 64 * 1024;
    private static final int FRAMES_MAX = 1024 * 1024;

    /**
     * @param bytes value bytes to preload per workload
     * @param topics above 1: the records are preloaded again round-robin over this many topics of {@code
     *     parallelism} partitions each, and blob-ingest runs once more, one job on all of them
     * @param checkpointInterval as Flink parses it ({@code 2s})
     * @param readSample Packed descriptors the read side reads
     */
    public record Settings(
            long bytes,
            int parallelism,
            int topics,
            String checkpointInterval,
            int readSample,
            long seed,
            boolean profile,
            boolean profileWallClock,
            Optional<S3Settings> s3,
            List<Duration> freshnessIntervals) {

        public Settings {
            freshnessIntervals = List.copyOf(freshnessIntervals);
        }
    }

    /**
     * The S3 read side ({@code --s3}), on the small and frames workloads.
     *
     * @param delay the latency proxy's delay per request/response exchange
     * @param bandwidth the proxy's cap in bytes per second; 0 for none
     */
    public record S3Settings(Duration delay, long bandwidth) {}

    private static final String DESCRIPTORS_SUFFIX = "-descriptors";
    private static final String DEAD_LETTERS_SUFFIX = "-dead-letters";

    /** How often the steady phase's samples are taken: its ends are this precise. */
    public static final Duration STEADY_SAMPLE_PERIOD = Duration.ofMillis(50);
    /** Freshness is measured at half the steady ingest rate this run measured: loaded, not saturated. */
    static final double FRESHNESS_RATE_FRACTION = 0.5;
    /**
     * Records measured per interval at least this long, and over at least {@value #FRESHNESS_MIN_INTERVALS}
     * checkpoints.
     */
    static final Duration FRESHNESS_MIN_MEASURED = Duration.ofSeconds(20);

    static final int FRESHNESS_MIN_INTERVALS = 4;

    /** The workloads freshness is measured on: those made of one record kind, produced at a steady rate. */
    public static boolean measuresFreshness(BenchWorkload workload) {
        return workload == BenchWorkload.SMALL || workload == BenchWorkload.FRAMES;
    }

    /** The workloads the S3 read side runs on: those whose reads are all Packed, and made of one record kind. */
    public static boolean readsOverS3(BenchWorkload workload) {
        return workload == BenchWorkload.SMALL || workload == BenchWorkload.FRAMES;
    }

    /** The workloads blob-ingest runs on with each exact sharing mode: those with duplicates to share. */
    public static boolean comparesSharing(BenchWorkload workload) {
        return workload == BenchWorkload.DUPLICATES;
    }

    /** blob-ingest run with {@code sharing}: its log's, its figures' and its base's name. */
    public static String ingestName(ExactSharing sharing) {
        return ContenderMain.INGEST + "-" + sharing;
    }

    /** blob-ingest on the fleet of {@code topics} topics: its log's, its figures' and its base's name. */
    public static String fleetIngestName(int topics) {
        return ContenderMain.INGEST + "-" + topics + "-topics";
    }

    /**
     * The topics the fleet comparison preloads {@code workloadTopic}'s records into again: {@code <workload
     * topic>-fleet-<i>} for i below {@code topics}.
     */
    private static List<String> fleetTopics(String workloadTopic, int topics) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < topics; i++) {
            names.add(workloadTopic + "-fleet-" + i);
        }
        return names;
    }

    /** The read side on the output of blob-ingest with {@code sharing} on. */
    public static String readSideName(ExactSharing sharing) {
        return ContenderMain.READ_SIDE + "-" + sharing;
    }

    private final EmbeddedKafkaBroker broker;
    private final Settings settings;
    private final Path output;
    private final PrintWriter progress;

    /** @param output the bench's output directory; each workload gets a directory in it */
    public BenchRunner(EmbeddedKafkaBroker broker, Settings settings, Path output, PrintWriter progress) {
        this.broker = broker;
        this.settings = settings;
        this.output = output;
        this.progress = progress;
    }

    /**
     * The directory of a workload's files: blob-ingest's base, the file sink's output until counted, logs, profiles.
     */
    public Path directory(BenchWorkload workload) {
        return output.resolve(workload.label());
    }

    public ChildJvm children(BenchWorkload workload) {
        return new ChildJvm(directory(workload).resolve("jvms"), settings.profile(), settings.profileWallClock());
    }

    public WorkloadOutcome run(BenchWorkload workload) throws IOException, InterruptedException, ExecutionException {
        Path directory = directory(workload);
        Files.createDirectories(directory);
        String topic = "bench-" + workload.label();
        broker.createTopic(topic, settings.parallelism());

        List<String> ingestOptions = new ArrayList<>();
        TopicWorkload records = switch (workload) {
            case MIXED -> {
                MixedWorkload mixed =
                        MixedWorkload.ofTotalBytes(settings.seed(), settings.bytes(), directory.resolve("external"));
                ExternalFiles.write(mixed.demo());
                ingestOptions.add(IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES.key() + "="
                        + mixed.demo().externalPrefix());
                yield mixed;
            }
            case SMALL -> {
                ingestOptions.add(IngestJobOptions.INLINE_MAX_SIZE.key() + "=" + SMALL_INLINE_MAX_SIZE);
                yield SizedBlobWorkload.ofTotalBytes(settings.seed(), SMALL_MIN, SMALL_MAX, settings.bytes());
            }
            case FRAMES -> SizedBlobWorkload.ofTotalBytes(settings.seed(), FRAMES_MIN, FRAMES_MAX, settings.bytes());
            case DUPLICATES -> {
                DuplicatesWorkload duplicates = DuplicatesWorkload.ofTotalBytes(
                        settings.seed(), settings.parallelism(), settings.bytes(), directory.resolve("external"));
                duplicates.writeFiles();
                ingestOptions.add(IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES.key() + "=" + duplicates.externalPrefix());
                yield duplicates;
            }
        };
        long started = System.nanoTime();
        Map<String, long[][]> bytesBeforeOffset = preload(records, List.of(topic));
        long bytes = valueBytes(bytesBeforeOffset);
        progress.printf(
                Locale.ROOT,
                "%s: preloaded %,d records, %,.1f MB in %.1f s%n",
                workload.label(),
                records.count(),
                bytes / 1e6,
                (System.nanoTime() - started) / 1e9);
        DiskFigures disk = DiskWriteBaseline.measure(directory, bytes, settings.seed());
        progress.printf(
                Locale.ROOT,
                "%s: the disk writes the same bytes at %.1f MB/s with fsync, %.1f MB/s without%n",
                workload.label(),
                disk.syncedMegabytesPerSecond(),
                disk.unsyncedMegabytesPerSecond());

        ChildJvm children = children(workload);
        KeyValueLine kafka = KeyValueLine.builder()
                .put("bootstrap", broker.bootstrapServers())
                .put("topic", topic)
                .put("parallelism", settings.parallelism())
                .build();
        Map<String, SteadyFigures> steady = new LinkedHashMap<>();
        ContenderFigures consume = contender(
                children,
                ContenderMain.CONSUME,
                kafka,
                List.of(),
                monitor(ConsumeContender.groupId(topic), bytesBeforeOffset),
                steady);
        KeyValueLine fileSink = KeyValueLine.builder()
                .put("bootstrap", broker.bootstrapServers())
                .put("topic", topic)
                .put("parallelism", settings.parallelism())
                .put("checkpoint-interval", settings.checkpointInterval())
                .put("output", directory.resolve("filesink").toUri())
                .build();
        ContenderFigures filesink = contender(
                children,
                ContenderMain.FILESINK,
                fileSink,
                List.of(),
                monitor(FileSinkContender.groupId(topic), bytesBeforeOffset),
                steady);
        // Counted already and never read again: without it a workload needs about twice --bytes of disk, not three
        // times.
        OwnedDirectory.discard(directory.resolve("filesink"));
        Path base = directory.resolve(ContenderMain.INGEST);
        ContenderFigures blobIngest = ingest(
                children,
                ContenderMain.INGEST,
                List.of(topic),
                topic,
                base,
                ingestOptions,
                OptionalLong.empty(),
                bytesBeforeOffset,
                steady);
        ReadFigures read = readSide(children, workload, ContenderMain.READ_SIDE, base);
        Optional<FleetFigures> fleet = Optional.empty();
        if (settings.topics() > 1) {
            // Next to the run on one topic it is compared with (only that run's read side in between), before the
            // sharing, S3 and freshness runs change the page cache.
            fleet = Optional.of(compareFleet(children, workload, records, topic, bytes, ingestOptions, steady));
        }
        Optional<SharingFigures> sharing = Optional.empty();
        if (comparesSharing(workload)) {
            // Read already; gone, so that the sharing runs start with as much free page cache as this one had.
            OwnedDirectory.discard(base);
            sharing = Optional.of(compareSharing(
                    children,
                    workload,
                    (DuplicatesWorkload) records,
                    topic,
                    ingestOptions,
                    read,
                    bytesBeforeOffset,
                    steady));
        }
        Optional<S3ReadFigures> s3Read = Optional.empty();
        if (settings.s3().isPresent() && readsOverS3(workload)) {
            S3Settings s3 = settings.s3().get();
            progress.printf(
                    Locale.ROOT,
                    "%s: read side over S3 (%d ms per request, %s) ...%n",
                    workload.label(),
                    s3.delay().toMillis(),
                    s3.bandwidth() > 0
                            ? String.format(Locale.ROOT, "%.0f MB/s", s3.bandwidth() / 1e6)
                            : "no bandwidth cap");
            s3Read = Optional.of(S3ReadFigures.fromLine(children.run(
                    ContenderMain.READ_SIDE_S3,
                    KeyValueLine.builder()
                            .put("base", base.toUri())
                            .put("sample", settings.readSample())
                            .put("seed", settings.seed())
                            .put("delay_ms", s3.delay().toMillis())
                            .put("bandwidth", s3.bandwidth())
                            .put("scratch", directory.resolve("s3-client-tmp"))
                            .build(),
                    List.of())));
        }
        List<FreshnessFigures> freshness = new ArrayList<>();
        if (measuresFreshness(workload)) {
            double steadyRate = steady.containsKey(ContenderMain.INGEST)
                    ? steady.get(ContenderMain.INGEST).megabytesPerSecond() * 1e6
                    : bytes / (blobIngest.work().toNanos() / 1e9);
            long rate = (long) (steadyRate * FRESHNESS_RATE_FRACTION);
            for (Duration interval : settings.freshnessIntervals()) {
                freshness.add(
                        freshness(children, workload, ingestOptions, (SizedBlobWorkload) records, rate, interval));
            }
        }
        return new WorkloadOutcome(
                workload,
                records.count(),
                bytes,
                consume,
                filesink,
                blobIngest,
                read,
                s3Read,
                steady,
                freshness,
                disk,
                sharing,
                fleet);
    }

    /**
     * The fleet comparison: {@code records} preloaded again, the same bytes, record {@code i} to topic {@code i %
     * topics}, then blob-ingest on all those topics as one job ({@code --input-topic a,b,...}), bounded like the run
     * on {@code topic}. Its base is deleted once counted, as the file sink's output is: it is never read.
     *
     * @param bytes the value bytes preloaded into {@code topic}, which the fleet's topics must hold too
     */
    private FleetFigures compareFleet(
            ChildJvm children,
            BenchWorkload workload,
            TopicWorkload records,
            String topic,
            long bytes,
            List<String> ingestOptions,
            Map<String, SteadyFigures> steady)
            throws IOException, InterruptedException, ExecutionException {
        List<String> topics = fleetTopics(topic, settings.topics());
        for (String fleetTopic : topics) {
            broker.createTopic(fleetTopic, settings.parallelism());
        }
        long started = System.nanoTime();
        Map<String, long[][]> bytesBeforeOffset = preload(records, topics);
        long fleetBytes = valueBytes(bytesBeforeOffset);
        if (fleetBytes != bytes) {
            throw new IllegalStateException(String.format(
                    Locale.ROOT,
                    "%s: the fleet's %d topics hold %,d value bytes, the one topic %,d",
                    workload.label(),
                    topics.size(),
                    fleetBytes,
                    bytes));
        }
        progress.printf(
                Locale.ROOT,
                "%s: preloaded the same %,d records again over %d topics of %d partitions in %.1f s%n",
                workload.label(),
                records.count(),
                topics.size(),
                settings.parallelism(),
                (System.nanoTime() - started) / 1e9);
        String name = fleetIngestName(topics.size());
        Path base = directory(workload).resolve(name);
        ContenderFigures figures = ingest(
                children,
                name,
                topics,
                topic + "-" + topics.size() + "-topics",
                base,
                ingestOptions,
                OptionalLong.empty(),
                bytesBeforeOffset,
                steady);
        OwnedDirectory.discard(base);
        return new FleetFigures(topics.size(), figures);
    }

    /**
     * blob-ingest on {@code topic} with each exact sharing mode, unbounded until every record is delivered (as
     * in every earlier round of this comparison, from when {@code within-job} refused bounded input), so that
     * the three runs differ in the sharing mode alone. Each run's output is measured, read
     * ({@code off}'s holds the same blobs as the bounded run's, whose read side {@code offRead} is), and deleted, so
     * that each run starts with as much free page cache as the first had: a write into a page cache full of the
     * earlier runs' packs costs more (up to four times as much per byte, seen in a profile).
     */
    private SharingFigures compareSharing(
            ChildJvm children,
            BenchWorkload workload,
            DuplicatesWorkload records,
            String topic,
            List<String> ingestOptions,
            ReadFigures offRead,
            Map<String, long[][]> bytesBeforeOffset,
            Map<String, SteadyFigures> steady)
            throws IOException, InterruptedException, ExecutionException {
        List<SharingFigures.Run> runs = new ArrayList<>();
        for (ExactSharing mode : ExactSharing.values()) {
            String name = ingestName(mode);
            Path base = directory(workload).resolve(name);
            List<String> options = new ArrayList<>(ingestOptions);
            options.add(RawPackSinkOptions.EXACT_SHARING.key() + "=" + mode);
            ContenderFigures figures = ingest(
                    children,
                    name,
                    List.of(topic),
                    topic + "-" + mode,
                    base,
                    options,
                    OptionalLong.of(records.count()),
                    bytesBeforeOffset,
                    steady);
            StoredFigures stored = StoredOutput.measure(base);
            ReadFigures read =
                    mode == ExactSharing.OFF ? offRead : readSide(children, workload, readSideName(mode), base);
            OwnedDirectory.discard(base);
            runs.add(new SharingFigures.Run(mode, figures, stored, read));
        }
        return new SharingFigures(records.blobBytes(), records.uniqueBytes(), records.duplicates(), runs);
    }

    /**
     * blob-ingest's {@code run} on {@code topics} (one job, {@code --input-topic a,b,...}) into {@code base}, as
     * contender {@code name}: bounded, or unbounded until {@code deliver} records are delivered (descriptors and dead
     * letters committed); its descriptor and dead-letter topics and its group id are named after {@code outputs},
     * which differs per run, so that runs on one topic never meet.
     */
    private ContenderFigures ingest(
            ChildJvm children,
            String name,
            List<String> topics,
            String outputs,
            Path base,
            List<String> ingestOptions,
            OptionalLong deliver,
            Map<String, long[][]> bytesBeforeOffset,
            Map<String, SteadyFigures> steady)
            throws IOException, InterruptedException, ExecutionException {
        broker.createTopic(outputs + DESCRIPTORS_SUFFIX, 1);
        broker.createTopic(outputs + DEAD_LETTERS_SUFFIX, 1);
        KeyValueLine.Builder ingest = KeyValueLine.builder()
                .put("base", base.toUri())
                .put("bootstrap", broker.bootstrapServers())
                .put("dlq", outputs + DEAD_LETTERS_SUFFIX);
        String groupId = ingestGroupId(outputs);
        List<String> run =
                runArguments(String.join(",", topics), outputs, base, settings.checkpointInterval(), ingestOptions);
        // Also what several topics need: the default group is named after one topic.
        run.addAll(List.of("--group-id", groupId));
        if (deliver.isPresent()) {
            ingest.put("descriptors", outputs + DESCRIPTORS_SUFFIX).put("deliver", deliver.getAsLong());
            // Unbounded without a checkpoint directory: the run is ended by its JVM's exit, never restarted.
            run.add("--fresh");
        } else {
            run.add("--bounded");
        }
        return contender(
                children, name, ContenderMain.INGEST, ingest.build(), run, monitor(groupId, bytesBeforeOffset), steady);
    }

    /** The read side, as child {@code name}, on what blob-ingest wrote under {@code base}. */
    private ReadFigures readSide(ChildJvm children, BenchWorkload workload, String name, Path base)
            throws IOException, InterruptedException {
        progress.printf(
                "%s: read side of %s (%d random Packed descriptors) ...%n",
                workload.label(), base.getFileName(), settings.readSample());
        return ReadFigures.fromLine(children.run(
                name,
                ContenderMain.READ_SIDE,
                KeyValueLine.builder()
                        .put("base", base.toUri())
                        .put("sample", settings.readSample())
                        .put("seed", settings.seed())
                        .build(),
                List.of(),
                Optional.empty()));
    }

    private FreshnessFigures freshness(
            ChildJvm children,
            BenchWorkload workload,
            List<String> ingestOptions,
            SizedBlobWorkload sizes,
            long bytesPerSecond,
            Duration interval)
            throws IOException, InterruptedException, ExecutionException {
        String label = interval.toMillis() + "ms";
        String topic = "bench-" + workload.label() + "-freshness-" + label;
        String descriptorTopic = topic + DESCRIPTORS_SUFFIX;
        broker.createTopic(topic, settings.parallelism());
        broker.createTopic(descriptorTopic, 1);
        broker.createTopic(topic + DEAD_LETTERS_SUFFIX, 1);
        Duration measured = FRESHNESS_MIN_MEASURED.compareTo(interval.multipliedBy(FRESHNESS_MIN_INTERVALS)) > 0
                ? FRESHNESS_MIN_MEASURED
                : interval.multipliedBy(FRESHNESS_MIN_INTERVALS);
        // Enough records for the warm-up and the measured period twice over, and for a slow start's trickle.
        double seconds = 2 * (measured.toMillis() + interval.toMillis() + 5_000) / 1e3;
        long records = (long) (bytesPerSecond * seconds / sizes.averageSize()) + 1_000;
        Path base = directory(workload).resolve("freshness-" + label);
        List<String> run = runArguments(topic, topic, base, interval.toMillis() + "ms", ingestOptions);
        // Unbounded, as a user runs it: with retained checkpoints to restart from.
        Path checkpoints = directory(workload).resolve("freshness-" + label + "-checkpoints");
        run.addAll(List.of("--checkpoint-dir", checkpoints.toString()));
        progress.printf(
                Locale.ROOT,
                "  freshness, checkpoint every %s, %.1f MB/s for %d s ...%n",
                TimeUtils.formatWithHighestUnit(interval),
                bytesPerSecond / 1e6,
                measured.toSeconds());
        FreshnessFigures figures = FreshnessFigures.fromLine(children.run(
                ContenderMain.FRESHNESS + "-" + label,
                ContenderMain.FRESHNESS,
                KeyValueLine.builder()
                        .put("bootstrap", broker.bootstrapServers())
                        .put("topic", topic)
                        .put("descriptors", descriptorTopic)
                        .put("parallelism", settings.parallelism())
                        .put("seed", settings.seed())
                        .put("min_bytes", sizes.minBytes())
                        .put("max_bytes", sizes.maxBytes())
                        .put("records", Math.min(records, Integer.MAX_VALUE))
                        .put("bytes_per_second", bytesPerSecond)
                        .put("measured_ms", measured.toMillis())
                        .put("interval_ms", interval.toMillis())
                        .build(),
                run,
                Optional.empty()));
        progress.printf(
                Locale.ROOT,
                "  freshness %s: p50 %d ms, p99 %d ms, max %d ms over %,d records%n",
                label,
                figures.p50().toMillis(),
                figures.p99().toMillis(),
                figures.max().toMillis(),
                figures.records());
        OwnedDirectory.discard(base);
        OwnedDirectory.discard(checkpoints);
        return figures;
    }

    /**
     * blob-ingest's {@code run} command line on {@code topic} (one, or several separated by commas), its descriptor
     * and dead-letter topics named after {@code outputs}.
     */
    private List<String> runArguments(
            String topic, String outputs, Path base, String checkpointInterval, List<String> ingestOptions) {
        List<String> run = new ArrayList<>(List.of(
                "run",
                "--bootstrap-servers",
                broker.bootstrapServers(),
                "--input-topic",
                topic,
                "--descriptor-topic",
                outputs + DESCRIPTORS_SUFFIX,
                "--dlq-topic",
                outputs + DEAD_LETTERS_SUFFIX,
                "--base",
                base.toString(),
                "--parallelism",
                Integer.toString(settings.parallelism()),
                "--checkpoint-interval",
                checkpointInterval));
        for (String option : ingestOptions) {
            run.add("-D");
            run.add(option);
        }
        return run;
    }

    private static String ingestGroupId(String topic) {
        return "bench-ingest-" + topic;
    }

    private SteadyStateMonitor monitor(String groupId, Map<String, long[][]> bytesBeforeOffset) {
        return new SteadyStateMonitor(broker.bootstrapServers(), groupId, bytesBeforeOffset);
    }

    /** The value bytes of every record preloaded into the topics of {@code bytesBeforeOffset}. */
    private static long valueBytes(Map<String, long[][]> bytesBeforeOffset) {
        long bytes = 0;
        for (long[][] topic : bytesBeforeOffset.values()) {
            for (long[] partition : topic) {
                bytes += partition[partition.length - 1];
            }
        }
        return bytes;
    }

    /** Runs a contender watched by {@code monitor}; its steady phase, if it had one, goes into {@code steady}. */
    private ContenderFigures contender(
            ChildJvm children,
            String name,
            KeyValueLine settings,
            List<String> arguments,
            SteadyStateMonitor monitor,
            Map<String, SteadyFigures> steady)
            throws IOException, InterruptedException {
        return contender(children, name, name, settings, arguments, monitor, steady);
    }

    /**
     * Runs {@code contender} as {@code name} (its log's, its figures' and its steady phase's), watched by {@code
     * monitor}; its steady phase, if it had one, goes into {@code steady}.
     */
    private ContenderFigures contender(
            ChildJvm children,
            String name,
            String contender,
            KeyValueLine settings,
            List<String> arguments,
            SteadyStateMonitor monitor,
            Map<String, SteadyFigures> steady)
            throws IOException, InterruptedException {
        progress.printf("  %s ...%n", name);
        ContenderFigures figures = ContenderFigures.fromLine(
                        children.run(name, contender, settings, arguments, Optional.of(monitor)))
                .named(name);
        monitor.stop().ifPresent(phase -> steady.put(name, phase));
        progress.printf(
                Locale.ROOT,
                "  %s: %,d records in %.1f s%n",
                name,
                figures.records(),
                figures.work().toMillis() / 1000.0);
        return figures;
    }

    /**
     * Sends every record of {@code records} once, spread round-robin over {@code topics} ({@link FleetLayout}), each
     * of {@code --parallelism} partitions; one record in memory at a time.
     *
     * @return per topic, per partition, the value bytes of its records before each offset; one producer keeps each
     *     partition's order
     */
    private Map<String, long[][]> preload(TopicWorkload records, List<String> topics)
            throws ExecutionException, InterruptedException {
        FleetLayout layout = new FleetLayout(topics.size(), settings.parallelism());
        long[][][] before = layout.offsetTables(records.count());
        new DemoProducer(broker.bootstrapServers())
                .produce(
                        records.count(),
                        index -> {
                            String topic = topics.get(layout.topic(index));
                            ProducerRecord<byte[], byte[]> record =
                                    layout.readdress(records.record(topic, settings.parallelism(), index), index);
                            long[] partition = before[layout.topic(index)][layout.partition(index)];
                            int offset = layout.offset(index);
                            partition[offset + 1] =
                                    partition[offset] + (record.value() == null ? 0 : record.value().length);
                            return record;
                        },
                        String.join(",", topics),
                        acknowledged -> {});
        Map<String, long[][]> byTopic = new LinkedHashMap<>();
        for (int t = 0; t < topics.size(); t++) {
            byTopic.put(topics.get(t), before[t]);
        }
        return byTopic;
    }
}
