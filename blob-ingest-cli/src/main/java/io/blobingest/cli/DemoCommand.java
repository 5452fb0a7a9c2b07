package io.blobingest.cli;

import io.blobingest.broker.EmbeddedKafkaBroker;
import io.blobingest.cli.demo.CommittedProgress;
import io.blobingest.cli.demo.CommittedTopic;
import io.blobingest.cli.demo.DemoDirectory;
import io.blobingest.cli.demo.DemoProducer;
import io.blobingest.cli.demo.DemoRecordKind;
import io.blobingest.cli.demo.DemoVerifier;
import io.blobingest.cli.demo.DemoWorkload;
import io.blobingest.cli.demo.ExternalFiles;
import io.blobingest.cli.demo.LanceReadBack;
import io.blobingest.cli.demo.ProgressLine;
import io.blobingest.cli.demo.QuietLogs;
import io.blobingest.cli.demo.Verification;
import io.blobingest.job.IngestJobOptions;
import io.blobingest.job.RunBaseline;
import io.blobingest.job.RunSummary;
import io.blobingest.lance.LanceOutputOptions;
import io.blobingest.placement.BlobHeaders;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.RawPackSinkOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.configuration.MemorySize;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code demo}: the whole pipeline on this machine in about a minute. Starts a Kafka broker in this
 * JVM, produces a synthetic robotics workload, runs the ingest job exactly as {@code run} does (in a
 * local Flink MiniCluster, checkpointing on), shows its committed progress, prints the run summary,
 * then reads every descriptor back through the Object Layer and compares it with what was produced.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Run the pipeline end to end on a synthetic robotics workload, with an in-process Kafka"
                + " broker and a local Flink MiniCluster, then read every blob back and compare."
                + " Exit 0 only if every blob matched.")
public final class DemoCommand implements Callable<Integer> {

    private static final String INPUT_TOPIC = "demo-blobs";
    private static final String DESCRIPTOR_TOPIC = "demo-descriptors";
    private static final String DEAD_LETTER_TOPIC = "demo-dead-letters";
    private static final int PARTITIONS = 2;
    private static final String CHECKPOINT_INTERVAL = "1s";
    private static final MemorySize PACK_TARGET_SIZE = MemorySize.parse("16mb");
    /**
     * Blobs are routed to writers by content, so the calibration image every robot sends, on both
     * partitions, is stored once, and so is each re-sent frame's first copy.
     */
    private static final ExactSharing EXACT_SHARING = ExactSharing.WITHIN_JOB;

    private static final Duration PROGRESS_INTERVAL = Duration.ofMillis(500);
    private static final Duration READ_BACK_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration SETTLE_POLL = Duration.ofMillis(100);

    @Spec
    CommandSpec spec;

    @Option(
            names = "--base",
            defaultValue = "demo-output",
            description = "Directory for the blob sets, manifests and External files; emptied first if an earlier"
                    + " demo made it (default: ${DEFAULT-VALUE}).")
    Path base;

    @Option(
            names = "--blobs",
            defaultValue = "2000",
            description = "Records to produce, at least " + DemoWorkload.MIN_COUNT + " (default: ${DEFAULT-VALUE}).")
    int blobs;

    @Option(
            names = "--seed",
            defaultValue = "42",
            description = "Seed of the workload; the same seed produces the same bytes (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--keep-running",
            description = "After the check, leave Kafka and the (unbounded) job running for kcat and"
                    + " 'descriptors tail'; Ctrl-C stops both.")
    boolean keepRunning;

    @Option(
            names = "--lance",
            description = "Also write the descriptors as a Lance dataset (sink.lance.dataset-uri, under --base in"
                    + " _lance/demo.lance) and read every blob back with Lance's takeBlobs.")
    boolean lance;

    private PrintWriter out;
    private PrintWriter err;

    @Override
    public Integer call() throws Exception {
        out = spec.commandLine().getOut();
        err = spec.commandLine().getErr();
        if (blobs < DemoWorkload.MIN_COUNT) {
            throw new ParameterException(
                    spec.commandLine(), "--blobs must be at least " + DemoWorkload.MIN_COUNT + ", found " + blobs);
        }
        long started = System.nanoTime();
        DemoDirectory directory;
        try {
            directory = DemoDirectory.prepare(base);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--base: " + e.getMessage());
        }
        DemoWorkload workload = new DemoWorkload(seed, blobs, directory.externalDirectory());
        printPlan(workload, directory);

        try (QuietLogs quiet = QuietLogs.whileTheDemoRuns()) {
            err.println("starting Kafka (KRaft, one combined node) ...");
            EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
            Thread closeBroker = new Thread(() -> closeQuietly(broker), "demo-broker-shutdown");
            Runtime.getRuntime().addShutdownHook(closeBroker);
            try {
                return runDemo(broker, workload, directory, started);
            } finally {
                Runtime.getRuntime().removeShutdownHook(closeBroker);
                broker.close();
            }
        }
    }

    private int runDemo(EmbeddedKafkaBroker broker, DemoWorkload workload, DemoDirectory directory, long started)
            throws Exception {
        String bootstrap = broker.bootstrapServers();
        broker.createTopic(INPUT_TOPIC, PARTITIONS);
        broker.createTopic(DESCRIPTOR_TOPIC, 1);
        broker.createTopic(DEAD_LETTER_TOPIC, 1);
        err.printf(
                "Kafka at %s: topics %s (%d partitions), %s, %s%n",
                bootstrap, INPUT_TOPIC, PARTITIONS, DESCRIPTOR_TOPIC, DEAD_LETTER_TOPIC);
        int files = ExternalFiles.write(workload);
        err.printf("wrote %d External files to %s%n", files, directory.externalDirectory());
        produce(workload, bootstrap);

        RunBaseline baseline = RunBaseline.take(
                new org.apache.flink.core.fs.Path(directory.base().toUri()));
        StringWriter runOutput = new StringWriter();
        long jobStarted = System.nanoTime();
        CompletableFuture<Integer> job = startJob(runArguments(bootstrap, directory, workload), runOutput);
        boolean finished = awaitCommitted(job, baseline, bootstrap, workload.count(), jobStarted);
        Duration jobTime = Duration.ofNanos(System.nanoTime() - jobStarted);
        out.print(runOutput);
        if (finished && job.join() != BlobIngestCli.EXIT_OK) {
            out.println("demo: the ingest job failed (see above); nothing was verified");
            return BlobIngestCli.EXIT_FAULT;
        }
        if (keepRunning) {
            out.print(RunSummary.of(baseline, jobTime, PACK_TARGET_SIZE.getBytes(), deadLetterCounts(bootstrap))
                    .format());
        }

        err.println("reading every descriptor back through the Object Layer ...");
        long verifyStarted = System.nanoTime();
        Verification verification = new DemoVerifier(workload, directory.base().toUri(), bootstrap)
                .verify(DESCRIPTOR_TOPIC, DEAD_LETTER_TOPIC, READ_BACK_TIMEOUT);
        printVerification(verification);
        boolean lanceMatched = !lance || checkLance(workload, directory);
        out.printf(
                Locale.ROOT,
                "elapsed %.1f s (job %.1f s, read-back %.1f s)%n",
                seconds(System.nanoTime() - started),
                jobTime.toMillis() / 1000.0,
                seconds(System.nanoTime() - verifyStarted));
        out.flush();
        if (keepRunning) {
            keepRunningUntilInterrupted(broker.bootstrapServers(), directory);
        }
        return verification.everyBlobMatched() && lanceMatched ? BlobIngestCli.EXIT_OK : BlobIngestCli.EXIT_FAULT;
    }

    private boolean checkLance(DemoWorkload workload, DemoDirectory directory) throws IOException {
        err.println("reading every blob back through Lance's takeBlobs ...");
        LanceReadBack readBack =
                LanceReadBack.check(workload, directory.lanceDataset().toString());
        out.printf(
                Locale.ROOT,
                "Lance dataset %s: %,d rows, %,d blobs read back by Lance's takeBlobs and matched%n",
                directory.lanceDataset(),
                readBack.rows(),
                readBack.blobsMatched());
        for (String problem : readBack.problems()) {
            out.println("  " + problem);
        }
        if (readBack.problemCount() > readBack.problems().size()) {
            out.printf(
                    "... and %d more problems%n",
                    readBack.problemCount() - readBack.problems().size());
        }
        out.println(
                readBack.everyBlobMatched()
                        ? "OK: Lance reads every blob back"
                        : "FAILED: Lance does not read every blob back");
        return readBack.everyBlobMatched();
    }

    private void printPlan(DemoWorkload workload, DemoDirectory directory) {
        out.printf(
                Locale.ROOT,
                "blob-ingest demo: %,d records (seed %d, %.1f MiB in record values) into %s%n",
                workload.count(),
                workload.seed(),
                workload.inputBytes() / (1024.0 * 1024.0),
                directory.base());
        Map<DemoRecordKind, Integer> counts = workload.countsByKind();
        for (DemoRecordKind kind : DemoRecordKind.values()) {
            out.printf(
                    Locale.ROOT,
                    "  %,7d  %-19s %-11s %s%n",
                    counts.getOrDefault(kind, 0),
                    kind.label(),
                    kind.sizes(),
                    kind.expectedOutcome());
        }
        out.printf(
                "External files: %s (external.allowed-prefixes); placement: Inline up to %s, Dedicated above"
                        + " %s; Raw Packs up to %s; exact sharing %s%n",
                workload.externalPrefix(),
                DemoWorkload.INLINE_MAX_SIZE,
                IngestJobOptions.DEDICATED_THRESHOLD.defaultValue(),
                PACK_TARGET_SIZE,
                EXACT_SHARING);
        out.flush();
    }

    private void produce(DemoWorkload workload, String bootstrap) throws ExecutionException, InterruptedException {
        ProgressLine line = new ProgressLine(err, System.console() != null);
        long started = System.nanoTime();
        new DemoProducer(bootstrap)
                .produce(
                        workload,
                        INPUT_TOPIC,
                        PARTITIONS,
                        acknowledged -> line.show(String.format(
                                Locale.ROOT,
                                "producing: %,d of %,d records acknowledged",
                                acknowledged,
                                workload.count())));
        line.finish(String.format(
                Locale.ROOT,
                "produced %,d records to %s in %.1f s",
                workload.count(),
                INPUT_TOPIC,
                seconds(System.nanoTime() - started)));
    }

    /** The {@code run} command line the demo runs: the same code path as a user's {@code run}. */
    private List<String> runArguments(String bootstrap, DemoDirectory directory, DemoWorkload workload) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--bootstrap-servers",
                bootstrap,
                "--input-topic",
                INPUT_TOPIC,
                "--descriptor-topic",
                DESCRIPTOR_TOPIC,
                "--dlq-topic",
                DEAD_LETTER_TOPIC,
                "--base",
                directory.base().toString(),
                "--parallelism",
                Integer.toString(PARTITIONS),
                "--checkpoint-interval",
                CHECKPOINT_INTERVAL,
                "-D",
                IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES.key() + "=" + workload.externalPrefix(),
                "-D",
                IngestJobOptions.INLINE_MAX_SIZE.key() + "=" + DemoWorkload.INLINE_MAX_SIZE,
                "-D",
                RawPackSinkOptions.PACK_TARGET_SIZE.key() + "=" + PACK_TARGET_SIZE.toString(),
                "-D",
                RawPackSinkOptions.EXACT_SHARING.key() + "=" + EXACT_SHARING,
                "-D",
                RawPackSinkOptions.CREATED_BY.key() + "=blob-ingest demo"));
        if (!keepRunning) {
            args.add("--bounded");
        } else {
            // The demo's broker lives and dies with this JVM: there is no restart to protect.
            args.add("--fresh");
        }
        if (lance) {
            args.addAll(List.of("-D", LanceOutputOptions.DATASET_URI.key() + "=" + directory.lanceDataset()));
        }
        return args;
    }

    private CompletableFuture<Integer> startJob(List<String> args, StringWriter runOutput) {
        err.printf(
                "running the ingest job: Flink MiniCluster, parallelism %d, checkpoint every %s, %s%n",
                PARTITIONS, CHECKPOINT_INTERVAL, keepRunning ? "unbounded" : "bounded");
        PrintWriter runWriter = new PrintWriter(runOutput, true);
        CompletableFuture<Integer> job = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    try {
                        job.complete(BlobIngestCli.execute(args.toArray(String[]::new), runWriter, err));
                    } catch (Throwable t) {
                        job.completeExceptionally(t);
                    }
                },
                "demo-ingest-job");
        thread.setDaemon(true);
        thread.start();
        return job;
    }

    /**
     * Shows committed progress until the job ends (bounded) or, when it keeps running, until every
     * record is accounted for or the job ends anyway.
     *
     * @return true if the job ended
     */
    private boolean awaitCommitted(
            CompletableFuture<Integer> job, RunBaseline baseline, String bootstrap, int expected, long jobStarted)
            throws IOException, InterruptedException {
        ProgressLine line = new ProgressLine(err, System.console() != null);
        try (CommittedTopic deadLetters = new CommittedTopic(bootstrap, DEAD_LETTER_TOPIC)) {
            CommittedProgress progress = new CommittedProgress(baseline, deadLetters);
            while (true) {
                boolean ended = awaitEnd(job, PROGRESS_INTERVAL);
                CommittedProgress.Totals totals = ended ? settledTotals(progress, expected) : progress.refresh();
                String text =
                        ProgressLine.jobProgress(totals, expected, Duration.ofNanos(System.nanoTime() - jobStarted));
                if (ended || (keepRunning && totals.records() >= expected)) {
                    line.finish(text);
                    return ended;
                }
                line.show(text);
            }
        }
    }

    /**
     * The totals once the job has ended. Kafka writes a committed transaction's markers after the
     * commit returns, so the dead-letter topic's last stable offset may trail the job's end by a
     * moment: read again until every record is accounted for or {@link #SETTLE_TIMEOUT} has passed
     * (a failed job never accounts for all of them).
     */
    private static CommittedProgress.Totals settledTotals(CommittedProgress progress, int expected)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
        CommittedProgress.Totals totals = progress.refreshToEnd(READ_BACK_TIMEOUT);
        while (totals.records() < expected && System.nanoTime() < deadline) {
            Thread.sleep(SETTLE_POLL.toMillis());
            totals = progress.refreshToEnd(READ_BACK_TIMEOUT);
        }
        return totals;
    }

    private static boolean awaitEnd(CompletableFuture<Integer> job, Duration timeout) throws InterruptedException {
        try {
            job.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }

    /** Dead letters per code as the dead-letter topic holds them (the job's own counts arrive only when it ends). */
    private static Map<DeadLetterCode, Long> deadLetterCounts(String bootstrap) {
        Map<String, DeadLetterCode> codes = new HashMap<>();
        for (DeadLetterCode code : DeadLetterCode.values()) {
            codes.put(code.wireName(), code);
        }
        Map<DeadLetterCode, Long> counts = new EnumMap<>(DeadLetterCode.class);
        try (CommittedTopic topic = new CommittedTopic(bootstrap, DEAD_LETTER_TOPIC)) {
            for (ConsumerRecord<byte[], byte[]> record : topic.readToEnd(Duration.ofSeconds(30))) {
                Header error = record.headers().lastHeader(BlobHeaders.ERROR);
                DeadLetterCode code =
                        error == null ? null : codes.get(new String(error.value(), StandardCharsets.UTF_8));
                if (code != null) {
                    counts.merge(code, 1L, Long::sum);
                }
            }
        }
        return counts;
    }

    private void printVerification(Verification verification) {
        out.printf(
                Locale.ROOT,
                "read back %,d descriptors from %s through the Object Layer (%d readAll batches):"
                        + " %,d byte-exact with the expected kind, key, headers and crc32c%n",
                verification.descriptors(),
                DESCRIPTOR_TOPIC,
                verification.batches(),
                verification.blobsMatched());
        out.printf(
                Locale.ROOT,
                "dead letters on %s: %,d, %,d of them with the code their record had to get%n",
                DEAD_LETTER_TOPIC,
                verification.deadLetters(),
                verification.deadLettersMatched());
        out.printf(
                Locale.ROOT,
                "ingest-mode External records: %,d fetched, placed and read back%n",
                verification.ingestPlaced());
        for (String problem : verification.problems()) {
            out.println("MISMATCH " + problem);
        }
        if (verification.problemCount() > verification.problems().size()) {
            out.printf(
                    "... and %d more problems%n",
                    verification.problemCount() - verification.problems().size());
        }
        if (verification.everyBlobMatched()) {
            out.printf(
                    Locale.ROOT,
                    "OK: every blob matched (%,d blobs, %,d dead letters)%n",
                    verification.blobsMatched(),
                    verification.deadLettersMatched());
        } else {
            out.printf(Locale.ROOT, "FAILED: not every blob matched (%,d problems)%n", verification.problemCount());
        }
    }

    private void keepRunningUntilInterrupted(String bootstrap, DemoDirectory directory) throws InterruptedException {
        out.printf("%nKafka and the ingest job keep running; Ctrl-C stops both.%n");
        out.printf("  bootstrap servers  %s%n", bootstrap);
        out.printf("  input topic        %s%n", INPUT_TOPIC);
        out.printf("  descriptor topic   %s%n", DESCRIPTOR_TOPIC);
        out.printf("  dead-letter topic  %s%n", DEAD_LETTER_TOPIC);
        out.printf("  storage            %s%n", directory.base());
        out.println("Try:");
        out.printf("  echo hello | kcat -b %s -t %s -P -k my-key -H camera=cam0%n", bootstrap, INPUT_TOPIC);
        out.printf("  ./blob-ingest descriptors tail --bootstrap-servers %s --topic %s%n", bootstrap, DESCRIPTOR_TOPIC);
        out.printf("  kcat -b %s -t %s -C -f '%%k %%h%%n'%n", bootstrap, DEAD_LETTER_TOPIC);
        out.printf("  ./blob-ingest descriptors show %s --limit 20%n", directory.base());
        out.flush();
        new CountDownLatch(1).await();
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private void closeQuietly(EmbeddedKafkaBroker broker) {
        try {
            broker.close();
        } catch (Exception e) {
            err.println("demo: could not stop Kafka cleanly: " + e.getMessage());
        }
    }
}
