package io.blobingest.bench.internal;

import io.blobingest.bench.ContenderFigures;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.flink.util.TimeUtils;

/**
 * The entry point of a contender's child JVM: {@code <contender> <result file> <settings line>
 * [run arguments]}. Runs one contender, then writes its figures, this JVM's CPU time and peak RSS
 * included, as one {@link KeyValueLine} to the result file. Exits 0 on success, 1 on any failure.
 * Profiled ({@link ChildProfiler}) from its first line when the bench runs with {@code --profile}.
 */
public final class ContenderMain {

    public static final String CONSUME = "consume";
    public static final String FILESINK = "filesink";
    public static final String INGEST = "blob-ingest";
    public static final String READ_SIDE = "read-side";
    public static final String READ_SIDE_S3 = "read-side-s3";
    public static final String FRESHNESS = "freshness";

    private ContenderMain() {}

    public static void main(String[] args) {
        try {
            Optional<ChildProfiler> profiler = ChildProfiler.startIfAsked();
            Path resultFile = Path.of(args[1]);
            String result = run(
                    args[0], KeyValueLine.parse(args[2]), Arrays.asList(args).subList(3, args.length));
            Files.writeString(resultFile, result + "\n", StandardCharsets.UTF_8);
            if (profiler.isPresent()) {
                profiler.get().stopAndWrite();
            }
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    private static String run(String contender, KeyValueLine settings, List<String> runArguments) throws Exception {
        if (contender.equals(READ_SIDE_S3)) {
            return new S3ReadBench(
                            URI.create(settings.get("base")),
                            Math.toIntExact(settings.getLong("sample")),
                            settings.getLong("seed"),
                            Duration.ofMillis(settings.getLong("delay_ms")),
                            settings.getLong("bandwidth"),
                            Path.of(settings.get("scratch")))
                    .run()
                    .toLine()
                    .toString();
        }
        if (contender.equals(FRESHNESS)) {
            SizedBlobWorkload workload = new SizedBlobWorkload(
                    settings.getLong("seed"),
                    Math.toIntExact(settings.getLong("min_bytes")),
                    Math.toIntExact(settings.getLong("max_bytes")),
                    Math.toIntExact(settings.getLong("records")));
            return new FreshnessContender(
                            runArguments,
                            settings.get("bootstrap"),
                            settings.get("topic"),
                            settings.get("descriptors"),
                            Math.toIntExact(settings.getLong("parallelism")),
                            workload,
                            settings.getLong("bytes_per_second"),
                            Duration.ofMillis(settings.getLong("measured_ms")),
                            Duration.ofMillis(settings.getLong("interval_ms")))
                    .run()
                    .toLine()
                    .toString();
        }
        if (contender.equals(READ_SIDE)) {
            return new ReadSideBench(
                            URI.create(settings.get("base")),
                            Math.toIntExact(settings.getLong("sample")),
                            settings.getLong("seed"))
                    .run()
                    .toLine()
                    .toString();
        }
        Tally tally = switch (contender) {
            case CONSUME ->
                new ConsumeContender(
                                settings.get("bootstrap"),
                                settings.get("topic"),
                                Math.toIntExact(settings.getLong("parallelism")))
                        .run();
            case FILESINK ->
                new FileSinkContender(
                                settings.get("bootstrap"),
                                settings.get("topic"),
                                Math.toIntExact(settings.getLong("parallelism")),
                                TimeUtils.parseDuration(settings.get("checkpoint-interval")),
                                settings.get("output"))
                        .run();
            case INGEST -> {
                IngestContender ingest = new IngestContender(
                        runArguments, URI.create(settings.get("base")), settings.get("bootstrap"), settings.get("dlq"));
                yield settings.asMap().containsKey("deliver")
                        ? ingest.runUntilDelivered(settings.get("descriptors"), settings.getLong("deliver"))
                        : ingest.run();
            }
            default -> throw new IllegalArgumentException("no contender " + contender);
        };
        Duration cpu = ProcessStats.cpuTime();
        return new ContenderFigures(
                        contender,
                        tally.records(),
                        tally.bytes(),
                        tally.elapsed(),
                        cpu,
                        ProcessStats.peakResidentBytes(),
                        tally.restarts())
                .toLine()
                .toString();
    }
}
