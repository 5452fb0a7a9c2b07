package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.storage.testing.S3ServerExtension;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import io.blobingest.testkit.net.LatencyProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chaos from outside, as an operator would cause it: {@code ./blob-ingest run},
 * unbounded with retained checkpoints, in a child JVM against a Kafka broker in another child JVM
 * and an S3 server (S3Proxy over files on a small tmpfs of its own) reached through a TCP proxy,
 * while 12,000 records of every {@link ChaosWorkload} shape keep arriving. One after another: (a)
 * the broker SIGKILLed and started again on its data directory; (b) the S3 server stopped for 15
 * s while the job commits, then started again; (c) the S3 server's file system filled to its last
 * byte, then freed; (e) the link to S3 stalled (every byte held) for longer than the External
 * copy timeout. Whenever the job exits, the test starts the same command again, as an operator
 * would, and checks that the job said why in one line. At the end: the same command with {@code
 * --bounded} drains and commits, {@code gc --delete --grace 0s} leaves no multipart upload or
 * persisted part, and every input is exactly one committed descriptor, byte-exact through the
 * Object Layer, or one dead letter ({@code fetch-failed} allowed for ingest-mode External records
 * only, the copies the stall may time out), and exactly one row of the Lance output's dataset (on
 * the same S3 server, so its commits meet every fault) per placed input, read back with Lance's
 * {@code takeBlobs}, each checkpoint committed to it once. The report is printed (docs/exactly-once.md, "The
 * outside chaos suite"). Run alone: {@code -Dit.test=OperatorChaosITCase} or {@code
 * -Dgroups=chaos}.
 */
@Tag("chaos")
class OperatorChaosITCase {

    private static final int PARTITIONS = 2;
    private static final int CHUNK = 2_400;
    /** A chunk before the faults, then one during each of the four. */
    private static final int INPUTS = 5 * CHUNK;

    private static final String BUCKET = "chaos";
    private static final String PREFIX = "base";
    /** The Lance output's dataset, on the same S3 server, so that its commits meet the faults too. */
    private static final String LANCE_PREFIX = "lance";

    private static final Duration COPY_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration S3_OUTAGE = Duration.ofSeconds(15);
    private static final Duration BROKER_DOWN = Duration.ofSeconds(5);
    private static final Duration DISK_FULL = Duration.ofSeconds(10);
    private static final Duration STALL = COPY_TIMEOUT.multipliedBy(4);
    private static final Duration STEP_TIMEOUT = Duration.ofMinutes(3);
    /** The job's starts the test allows itself: one, and a restart after each fault with some to spare. */
    private static final int MAX_STARTS = 12;

    /** A failed or refused call to S3, or a checkpoint that could not complete, in the job's log. */
    private static final Pattern S3_FAILED = Pattern.compile(
            "(?im)^.*(unable to execute http request|connection refused|connection reset|failed to trigger"
                    + " or complete checkpoint|checkpoint .* (declined|expired|failed)|status code: 5\\d\\d"
                    + "|internal ?error|no space left).*$");
    /** An External copy given up after its timeout. */
    private static final Pattern COPY_TIMED_OUT = Pattern.compile("(?m)^.*external-copy-timeout.*$");

    /** The directory of the S3 server's files; a tmpfs of 1 GiB when this JVM may mount one. */
    private static final Path STORE = Path.of(
            System.getProperty("java.io.tmpdir"),
            "operator-chaos-s3-" + ProcessHandle.current().pid());

    private static final Optional<SmallDisk> STORE_DISK = mountStoreDisk();

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = KafkaBrokerExtension.inChildProcess();

    @RegisterExtension
    static final S3ServerExtension S3 = S3ServerExtension.onDisk(BUCKET, STORE);

    private enum Fault {
        BROKER_SIGKILL,
        S3_STOPPED_DURING_COMMITS,
        S3_DISK_FULL,
        S3_LINK_STALLED
    }

    /** One line of the report per fault: what it did, what the job did, what the operator did. */
    private record Struck(Fault fault, String evidence, List<JobOperator.Exit> exits, double seconds) {}

    @AfterAll
    static void unmountStoreDisk() throws Exception {
        if (STORE_DISK.isPresent()) {
            STORE_DISK.get().close();
        }
    }

    @Test
    void everyInputExactlyOnceAndByteExactThroughFaultsFromOutside(@TempDir Path dir) throws Exception {
        assumeTrue(
                STORE_DISK.isPresent(), "the S3 server's full disk needs a tmpfs of its own, which only root mounts");
        long start = System.nanoTime();
        S3.initializeFlinkFileSystems();
        ChaosWorkload workload = new ChaosWorkload(37, dir.resolve("external"));
        workload.writeExternalFiles();
        KAFKA.createTopic("blobs", PARTITIONS);
        KAFKA.createTopic("descriptors", 1);
        KAFKA.createTopic("dead-letters", 1);
        List<Struck> report = new ArrayList<>();
        try (LatencyProxy link = new LatencyProxy(
                        new InetSocketAddress("127.0.0.1", S3.endpoint().getPort()));
                CommittedOutputs outputs =
                        new CommittedOutputs(KAFKA.bootstrapServers(), "descriptors", "dead-letters");
                JobOperator operator = new JobOperator(runCommand(workload, dir, link), dir, MAX_STARTS)) {
            try {
                operator.start();
                int produced = feed(workload, 0);
                awaitAll(outputs, operator, produced);
                for (Fault fault : Fault.values()) {
                    long faultStart = System.nanoTime();
                    int exitsBefore = operator.exits().size();
                    CompletableFuture<Void> feeding = feedAsync(workload, produced);
                    // Strike while the chunk is in flight: the job has placed part of it and more is coming.
                    int midChunk = produced + CHUNK / 10;
                    awaitCount(outputs, operator, midChunk);
                    JobOperator.Mark mark = operator.mark();
                    String evidence = strike(fault, outputs, operator, link, mark);
                    feeding.join();
                    produced += CHUNK;
                    awaitAll(outputs, operator, produced);
                    List<JobOperator.Exit> exits = operator.exits();
                    report.add(
                            new Struck(fault, evidence, exits.subList(exitsBefore, exits.size()), seconds(faultStart)));
                }
                assertThat(produced).isEqualTo(INPUTS);
                operator.current().kill();
                operator.assertEveryFailureExplainedInOneLine();
                drainAndCollectGarbage(workload, dir, link);
            } catch (AssertionError | Exception e) {
                operator.printOutputs();
                throw e;
            } finally {
                printReport(report, workload, operator, start);
            }
        }
        Set<Integer> placed = new ChaosOutcome(KAFKA, S3, PREFIX, "descriptors", "dead-letters", true)
                .assertEveryInputExactlyOnce(workload, INPUTS);
        String dataset = S3.uri(LANCE_PREFIX).toString();
        Map<String, String> storageOptions = LanceDatasetRows.storageOptions(S3);
        LanceDatasetRows.assertOneRowPerInput(workload, placed, dataset, storageOptions);
        LanceOutputITCase.assertEachCheckpointCommittedOnce(dataset, storageOptions);
        System.out.printf("operator chaos: checks done, %.1f s in all%n", seconds(start));
    }

    /** Strikes {@code fault}, holds it, heals it; returns the evidence that it bit. */
    private static String strike(
            Fault fault, CommittedOutputs outputs, JobOperator operator, LatencyProxy link, JobOperator.Mark mark)
            throws Exception {
        int committed = outputs.count();
        switch (fault) {
            case BROKER_SIGKILL -> {
                KAFKA.killBroker();
                Thread.sleep(BROKER_DOWN.toMillis());
                KAFKA.startBroker();
                return "SIGKILL with " + committed + " inputs' outputs committed, started again on "
                        + KAFKA.bootstrapServers() + " after " + BROKER_DOWN.toSeconds() + " s";
            }
            case S3_STOPPED_DURING_COMMITS -> {
                long refusedBefore = link.refusedConnections();
                S3.stopServer();
                superviseFor(operator, S3_OUTAGE);
                S3.restartServer();
                long refused = link.refusedConnections() - refusedBefore;
                assertThat(refused)
                        .as("connections of the job the stopped server refused: it was writing and committing")
                        .isPositive();
                return "stopped " + S3_OUTAGE.toSeconds() + " s with " + committed + " inputs' outputs committed, "
                        + refused + " connections of the job refused; the job: " + whatItPrinted(operator, mark);
            }
            case S3_DISK_FULL -> {
                Path ballast = STORE.resolve("ballast");
                long filled = SmallDisk.fill(ballast);
                // The server frees a little as it completes uploads (their parts go): reported, not asserted.
                long left = Files.getFileStore(STORE).getUsableSpace();
                superviseFor(operator, DISK_FULL);
                SmallDisk.free(ballast);
                return "filled with " + filled / (1024 * 1024) + " MiB of ballast (" + left / 1024
                        + " KiB left just after) for " + DISK_FULL.toSeconds() + " s, then freed; the job: "
                        + whatItPrinted(operator, mark);
            }
            case S3_LINK_STALLED -> {
                link.stall();
                superviseFor(operator, STALL);
                link.resume();
                return "every byte held for " + STALL.toSeconds() + " s (copy timeout " + COPY_TIMEOUT.toSeconds()
                        + " s) with " + committed + " inputs' outputs committed; the job: "
                        + operator.firstLineSince(mark, COPY_TIMED_OUT).orElse("no copy timed out");
            }
            default -> throw new IllegalArgumentException(fault.name());
        }
    }

    /**
     * The first line the job printed since {@code mark} saying that it failed, else the first
     * failed S3 call in its log, else that it printed nothing about the fault.
     */
    private static String whatItPrinted(JobOperator operator, JobOperator.Mark mark) {
        return operator.firstFailureReportSince(mark)
                .or(() -> operator.firstLineSince(mark, S3_FAILED))
                .orElse("printed nothing about it");
    }

    /**
     * The operator's end of the run: the same command with {@code --bounded} restores the killed
     * run's last checkpoint, commits what it holds and exits 0; then {@code gc} removes every
     * upload and part the failed attempts left, and nothing else is left unfinished.
     */
    private static void drainAndCollectGarbage(ChaosWorkload workload, Path dir, LatencyProxy link) throws Exception {
        List<String> bounded = new ArrayList<>(runCommand(workload, dir, link));
        bounded.add("--bounded");
        ChildProcess drain = ChildProcess.start(bounded, dir.resolve("drain.log"));
        try {
            assertThat(drain.awaitExit(STEP_TIMEOUT)).as(drain.output()).isZero();
        } finally {
            drain.destroy();
        }
        String base = S3.uri(PREFIX).toString();
        RunResult gc = TestEnvironment.runCli(
                S3CliOptions.withS3Options(S3, "gc", "--base", base, "--delete", "--grace", "0s", "--no-checkpoints"));
        assertThat(gc.exitCode()).as(gc.output()).isZero();
        System.out.println("operator chaos: gc: " + lastLine(gc.output()));
        assertThat(S3.inProgressMultipartUploads())
                .as("multipart uploads in progress after gc")
                .filteredOn(upload -> upload.key().startsWith(PREFIX + "/"))
                .isEmpty();
        assertThat(S3.objectKeys(PREFIX + "/")).as("persisted parts after gc").noneMatch(key -> key.contains("_tmp_"));
    }

    private static List<String> runCommand(ChaosWorkload workload, Path dir, LatencyProxy link) {
        List<String> command = new ArrayList<>(ChildProcess.runCommand(
                KAFKA, "operator-chaos", Path.of(PREFIX), PARTITIONS, "1s", dir.resolve("checkpoints")));
        command.set(command.indexOf("--base") + 1, S3.uri(PREFIX).toString());
        // The S3 options first: the endpoint after them sends the job through the link.
        command.addAll(List.of(S3CliOptions.withS3Options(S3)));
        command.addAll(List.of(
                "-D",
                "s3.endpoint=http://127.0.0.1:" + link.port(),
                // Few, short S3A retries, as ChaosRunITCase's: S3 faults fail calls within seconds
                // instead of being waited out, so the job fails, restarts, and may exit.
                "-D",
                "fs.s3a.attempts.maximum=2",
                "-D",
                "fs.s3a.retry.limit=2",
                "-D",
                "fs.s3a.retry.interval=100ms",
                "-D",
                "sink.raw-pack.roll-policy=on-checkpoint",
                "-D",
                "sink.raw-pack.pack-target-size=6mb",
                "-D",
                "sink.raw-pack.external-copy-timeout=" + COPY_TIMEOUT.toSeconds() + "s",
                "-D",
                "external.allowed-prefixes=" + workload.allowedPrefix(),
                "-D",
                "sink.lance.dataset-uri=" + S3.uri(LANCE_PREFIX)));
        return command;
    }

    /** Sends the chunk from {@code from} at the pace of a steady producer; returns the next index. */
    private static int feed(ChaosWorkload workload, int from) throws Exception {
        int batch = 100;
        for (int i = from; i < from + CHUNK; i += batch) {
            workload.send(KAFKA, "blobs", PARTITIONS, i, Math.min(from + CHUNK, i + batch));
            Thread.sleep(150);
        }
        return from + CHUNK;
    }

    private static CompletableFuture<Void> feedAsync(ChaosWorkload workload, int from) {
        return CompletableFuture.runAsync(() -> {
            try {
                feed(workload, from);
            } catch (Exception e) {
                throw new IllegalStateException("sending inputs " + from + ".." + (from + CHUNK - 1), e);
            }
        });
    }

    private static void awaitAll(CommittedOutputs outputs, JobOperator operator, int inputs) throws Exception {
        awaitSupervised(operator, () -> outputs.hasAll(inputs), "committed outputs of inputs 0.." + (inputs - 1));
    }

    private static void awaitCount(CommittedOutputs outputs, JobOperator operator, int count) throws Exception {
        awaitSupervised(operator, () -> outputs.count() >= count, count + " committed outputs");
    }

    /** Waits for {@code condition}, restarting the job whenever it has exited, as its operator. */
    private static void awaitSupervised(JobOperator operator, java.util.function.BooleanSupplier condition, String what)
            throws Exception {
        Await.until(
                () -> {
                    try {
                        operator.restartIfExited();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return condition.getAsBoolean();
                },
                what,
                STEP_TIMEOUT);
    }

    /** Lets {@code duration} pass while the fault holds, restarting the job whenever it has exited. */
    private static void superviseFor(JobOperator operator, Duration duration) throws Exception {
        long end = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < end) {
            operator.restartIfExited();
            Thread.sleep(Math.min(500, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
        }
    }

    private static void printReport(List<Struck> report, ChaosWorkload workload, JobOperator operator, long start) {
        System.out.printf(
                "operator chaos: %d inputs (%s), %d faults struck, %d starts of the job, %.1f s so far%n",
                INPUTS, workload.describeShapes(INPUTS), report.size(), operator.starts(), seconds(start));
        for (Struck struck : report) {
            System.out.printf(
                    "  %-26s %5.1f s  %s%n    job exits: %s%n",
                    struck.fault(),
                    struck.seconds(),
                    struck.evidence(),
                    struck.exits().isEmpty() ? "none (it recovered in place)" : struck.exits());
        }
    }

    private static Optional<SmallDisk> mountStoreDisk() {
        try {
            return SmallDisk.mount(STORE, 1024);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mount a tmpfs on " + STORE, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while mounting a tmpfs on " + STORE, e);
        }
    }

    private static String lastLine(String output) {
        String[] lines = output.strip().split("\n");
        return lines[lines.length - 1];
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
