package io.blobingest.cli.e2e;

import static io.blobingest.cli.e2e.TestEnvironment.runCli;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chaos fault (d): {@code ./blob-ingest run ... -D sink.lance.dataset-uri=...} in a child JVM is
 * killed with SIGKILL in the middle of a Lance commit, twice, at both sides of its commit point.
 * Lance 7.0.0 commits a version of a local dataset so (seen with strace): it writes the transaction
 * to {@code _transactions/<read version>-<uuid>.txn} (a temporary file renamed), the new manifest to
 * {@code _versions/<u64::MAX - version>.manifest#<attempt>}, links that to {@code <u64::MAX -
 * version>.manifest} (the commit point: the link fails if the version exists), removes the {@code
 * #<attempt>} file and rewrites {@code latest_version_hint.json}. The killed runs run under strace,
 * which holds that link for {@link #LINK_STALL} ({@link ChildProcess#startStallingLinks}): the test
 * watches the dataset's {@code _versions} (inotify) and kills the moment the chosen file appears,
 * and the held link makes that moment certain instead of a race with a commit of a few
 * milliseconds. The first run is killed with a commit of its own checkpoint written but not linked
 * (its {@code #1} file left behind); the restart is killed as its first version appears, which is
 * the restored checkpoint's commit, made before the job has run anything, Flink never told of it.
 * After each kill the test checks that the version is absent, or present. Each time the operator
 * starts the same command again, which resumes from the retained checkpoint; the last start is
 * bounded (and not under strace). In the end every input is exactly one committed descriptor or
 * dead letter, byte-exact through the Object Layer, and exactly one row of the dataset, byte-exact
 * through Lance's {@code takeBlobs}; no checkpoint is committed to the dataset twice, and {@code gc}
 * leaves no {@code .inprogress} file under the base.
 */
@Tag("chaos")
class LanceCommitKillITCase {

    private static final int PARTITIONS = 2;
    private static final int CHUNK = 520;
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final Duration LINK_STALL = Duration.ofSeconds(3);
    private static final String GROUP = "lance-commit-kill";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    /** The steps of a Lance commit at which a run is killed, each seen as a file appearing in {@code _versions}. */
    enum Moment {
        MANIFEST_WRITTEN_NOT_LINKED(name -> name.contains(".manifest#"), false),
        VERSION_MADE(name -> name.endsWith(".manifest"), true);

        final Predicate<String> isStep;
        /** Whether the commit's version exists when the kill strikes. */
        final boolean versionMade;

        Moment(Predicate<String> isStep, boolean versionMade) {
            this.isStep = isStep;
            this.versionMade = versionMade;
        }

        /** The manifest that makes the version of the commit that wrote {@code file}. */
        static Path versionManifest(Path file) {
            String name = file.getFileName().toString();
            int attempt = name.indexOf('#');
            return file.resolveSibling(attempt < 0 ? name : name.substring(0, attempt));
        }
    }

    /**
     * A kill: at which step, and whether it waits for the run's own progress first (so it strikes
     * a commit of the run's own checkpoint) or strikes the first commit after the start, which is
     * the restored checkpoint's when the previous kill left it uncommitted.
     */
    private record Kill(Moment moment, boolean afterProgress) {}

    private static final List<Kill> KILLS =
            List.of(new Kill(Moment.MANIFEST_WRITTEN_NOT_LINKED, true), new Kill(Moment.VERSION_MADE, false));

    /**
     * A chunk per run, half before its start and half while the kill waits; the Dedicated segment
     * (input 1,500) is in the last.
     */
    private static final int INPUTS = (KILLS.size() + 1) * CHUNK;

    @Test
    void everyInputOneDescriptorAndOneLanceRowAfterKillsDuringLanceCommits() throws Exception {
        ChaosWorkload workload = new ChaosWorkload(37, dir.resolve("external"));
        workload.writeExternalFiles();
        ChildProcess.createTopics(KAFKA, PARTITIONS);
        Path base = dir.resolve("base");
        Path dataset = dir.resolve("robots.lance");
        List<String> run = new ArrayList<>(
                ChildProcess.runCommand(KAFKA, GROUP, base, PARTITIONS, "1s", dir.resolve("checkpoints")));
        run.addAll(List.of(
                "-D",
                "sink.lance.dataset-uri=" + dataset,
                "-D",
                "external.allowed-prefixes=" + workload.allowedPrefix()));
        List<String> lastStart = new ArrayList<>(run);
        lastStart.add("--bounded");
        List<ChildProcess> children = new ArrayList<>();
        List<String> report = new ArrayList<>();
        int sent = 0;
        try (CommittedOutputs outputs = new CommittedOutputs(KAFKA.bootstrapServers(), "descriptors", "dead-letters")) {
            for (Kill kill : KILLS) {
                workload.send(KAFKA, "blobs", PARTITIONS, sent, sent + CHUNK / 2);
                int before = outputs.count();
                long started = System.nanoTime();
                ChildProcess child = ChildProcess.startStallingLinks(
                        run, dir.resolve("run-" + children.size() + ".log"), LINK_STALL);
                children.add(child);
                if (kill.afterProgress()) {
                    Await.until(
                            () -> outputs.count() > before || !child.process().isAlive(),
                            "committed outputs of run " + children.size(),
                            TIMEOUT);
                }
                awaitDataset(dataset, child);
                Path file;
                try (CommitWatch watch = new CommitWatch(dataset, kill.moment())) {
                    // Input arriving while the watch waits: rows for a commit to come, whatever the
                    // run committed before the watch began.
                    int from = sent + CHUNK / 2;
                    int to = sent + CHUNK;
                    CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> send(workload, from, to));
                    file = watch.awaitFile(child);
                    child.killNow();
                    sending.get();
                }
                sent += CHUNK;
                Path version = Moment.versionManifest(file);
                assertThat(Files.exists(version))
                        .as("%s exists after the kill at %s (%s)", version, kill.moment(), file)
                        .isEqualTo(kill.moment().versionMade);
                report.add(String.format(
                        "run %d killed at %s (%s appeared, %s %s) after %.1f s, with %d of %d inputs' outputs"
                                + " committed; the dataset then holds the commits (job/checkpoint) %s",
                        children.size(),
                        kill.moment(),
                        dataset.relativize(file),
                        dataset.relativize(version),
                        kill.moment().versionMade ? "made" : "not made",
                        (System.nanoTime() - started) / 1e9,
                        outputs.count(),
                        sent,
                        LanceDatasetRows.commits(dataset.toString(), Map.of())));
            }
            workload.send(KAFKA, "blobs", PARTITIONS, sent, INPUTS);
            long started = System.nanoTime();
            ChildProcess last = ChildProcess.start(lastStart, dir.resolve("run-last.log"));
            children.add(last);
            assertThat(last.awaitExit(TIMEOUT))
                    .as("exit code of the bounded restart")
                    .isZero();
            report.add(String.format(
                    "the bounded restart read to the end in %.1f s", (System.nanoTime() - started) / 1e9));
        } catch (AssertionError | Exception e) {
            ChildProcess.printOutputs(children.toArray(ChildProcess[]::new));
            throw e;
        } finally {
            report.forEach(line -> System.out.println("lance commit kill: " + line));
            ChildProcess.destroyAll(children.toArray(ChildProcess[]::new));
        }

        Set<Integer> placed = workload.placed(INPUTS);
        PipelineOutput.read(KAFKA, "descriptors", base).assertExactlyOnceAndByteExact(workload, placed);
        workload.assertOneDeadLetterPerBadInput(KAFKA, "dead-letters", INPUTS);
        LanceDatasetRows.assertOneRowPerInput(workload, placed, dataset.toString(), Map.of());
        LanceOutputITCase.assertEachCheckpointCommittedOnce(dataset.toString(), Map.of());

        StoredBlobs stored = new StoredBlobs(base);
        stored.assertOnlyCommittedFilesAreVisible(stored.committedManifests());
        int leftovers = StoredBlobs.hiddenFiles(base).size();
        RunResult gc = runCli("gc", "--base", base.toString(), "--delete", "--grace", "0s", "--no-checkpoints");
        assertThat(gc.exitCode()).as(gc.output()).isZero();
        System.out.println("lance commit kill: gc removed " + leftovers + " hidden leftovers: "
                + gc.output().strip());
        assertThat(StoredBlobs.hiddenFiles(base))
                .as("leftovers under the base after gc")
                .isEmpty();
        RunResult verify = runCli("pack", "verify", base.toString());
        assertThat(verify.exitCode()).as(verify.output()).isZero();
        assertThat(verify.output()).contains(" 0 faults");
    }

    private static void send(ChaosWorkload workload, int from, int to) {
        try {
            workload.send(KAFKA, "blobs", PARTITIONS, from, to);
        } catch (Exception e) {
            throw new IllegalStateException("cannot send inputs " + from + ".." + (to - 1), e);
        }
    }

    /** Until the run has created (or found) the dataset's version directory. */
    private static void awaitDataset(Path dataset, ChildProcess child) throws InterruptedException {
        Await.until(
                () -> Files.isDirectory(dataset.resolve("_versions"))
                        || !child.process().isAlive(),
                "the dataset " + dataset,
                TIMEOUT);
        assertThat(child.process().isAlive()).as("the run is still running").isTrue();
    }

    /** Inotify on one of the dataset's directories, for the next file of a commit step. */
    private static final class CommitWatch implements AutoCloseable {

        private final WatchService watch;
        private final Moment moment;

        CommitWatch(Path dataset, Moment moment) throws IOException {
            Path directory = dataset.resolve("_versions");
            Files.createDirectories(directory);
            this.watch = directory.getFileSystem().newWatchService();
            this.moment = moment;
            directory.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
        }

        /** The path of the first file of {@link #moment}'s step created from now on. */
        Path awaitFile(ChildProcess child) throws InterruptedException {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (System.nanoTime() < deadline) {
                assertThat(child.process().isAlive())
                        .as("the run is still running")
                        .isTrue();
                WatchKey key = watch.poll(200, TimeUnit.MILLISECONDS);
                if (key == null) {
                    continue;
                }
                Path directory = (Path) key.watchable();
                for (WatchEvent<?> event : key.pollEvents()) {
                    if (event.context() instanceof Path name && moment.isStep.test(name.toString())) {
                        return directory.resolve(name);
                    }
                }
                key.reset();
            }
            throw new AssertionError("no Lance commit reached " + moment + " within " + TIMEOUT);
        }

        @Override
        public void close() throws IOException {
            watch.close();
        }
    }
}
