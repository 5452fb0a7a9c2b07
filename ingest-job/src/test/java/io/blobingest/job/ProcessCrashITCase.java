package io.blobingest.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.IngestJobITCase.RunResult;
import io.blobingest.kafka.testing.KafkaBrokerExtension;
import io.blobingest.sink.StoredBlobs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code run} command as users run it, through the {@code ./blob-ingest} launcher in a child
 * JVM against this JVM's broker: killed with SIGKILL mid-stream, then started again with {@code
 * --resume --bounded}. The resumed job restores the newest retained checkpoint, aborts the dead
 * process's open Kafka transactions (same group id, so same transactional id prefix), and every
 * input, before and after the crash, ends up exactly once and byte-exact; the dead process's
 * leftovers are hidden in-progress files only.
 */
class ProcessCrashITCase {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final int PARTITIONS = 2;
    private static final int SIGKILL_EXIT_CODE = 128 + 9;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final TestWorkload WORKLOAD = new TestWorkload(23, 1_500);
    /** Produced before the first start; the next part while it runs; the rest after the kill. */
    private static final int BEFORE_START = 500;
    private static final int BEFORE_KILL = 1_000;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir Path dir;

    @Test
    void everyInputExactlyOnceAfterTheProcessIsKilledAndResumedFromItsLastCheckpoint() throws Exception {
        KAFKA.createTopic("blobs", PARTITIONS);
        KAFKA.createTopic("descriptors", 1);
        KAFKA.createTopic("dead-letters", 1);
        Path base = dir.resolve("base");
        List<String> run = List.of("run", "--bootstrap-servers", KAFKA.bootstrapServers(),
                "--input-topic", "blobs", "--descriptor-topic", "descriptors", "--dlq-topic", "dead-letters",
                "--group-id", "crash-test", "--base", base.toString(), "--parallelism", Integer.toString(PARTITIONS),
                "--checkpoint-interval", "1s", "--checkpoint-dir", dir.resolve("checkpoints").toString());
        List<String> resume = new ArrayList<>(run);
        resume.addAll(List.of("--resume", "--bounded"));
        ChildProcess first = null;
        ChildProcess second = null;
        try {
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, 0, BEFORE_START);
            first = ChildProcess.start(run, dir.resolve("first.log"));
            awaitSomeCommittedDescriptors(first);
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_START, BEFORE_KILL);
            first.kill();

            // The last records were acknowledged just before the kill: no checkpoint can have
            // committed their descriptors, which needs two more checkpoints.
            assertThat(KAFKA.drainCommitted("descriptors")).as("descriptors committed when the process died")
                    .isNotEmpty()
                    .hasSizeLessThan(BEFORE_KILL);
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_KILL, WORKLOAD.count());
            second = ChildProcess.start(resume, dir.resolve("second.log"));
            assertThat(second.awaitExit(TIMEOUT)).as("exit code of the resumed bounded run").isZero();
            assertThat(second.output()).contains("blob-ingest: job ");

            Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, "descriptors", base).assertExactlyOnceAndByteExact(WORKLOAD, all);
            assertThat(KAFKA.drainCommitted("dead-letters")).as("dead letters").isEmpty();
            StoredBlobs stored = new StoredBlobs(base);
            stored.assertOnlyCommittedFilesAreVisible(stored.committedManifests());
            RunResult verify = IngestJobITCase.runCli("pack", "verify", base.toString());
            assertThat(verify.exitCode()).as(verify.output()).isZero();
            assertThat(verify.output()).contains(" 0 faults");
        } catch (AssertionError | Exception e) {
            ChildProcess.printOutputs(first, second);
            throw e;
        } finally {
            ChildProcess.destroyAll(first, second);
        }
    }

    /** Waits until the running job has committed descriptors, failing if the process ends first. */
    private static void awaitSomeCommittedDescriptors(ChildProcess child) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (KAFKA.drainCommitted("descriptors").isEmpty()) {
            assertThat(child.process().isAlive()).as("the first run is still running").isTrue();
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no committed descriptor within " + TIMEOUT);
            }
            Thread.sleep(500);
        }
    }

    /** The launcher in a child JVM (it {@code exec}s java, so the process is the JVM), output in {@code log}. */
    record ChildProcess(Process process, Path log) {

        static ChildProcess start(List<String> args, Path log) throws IOException {
            List<String> command = new ArrayList<>();
            command.add(ROOT.resolve("blob-ingest").toString());
            command.addAll(args);
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
            builder.environment().put("BLOB_INGEST_JAVA_OPTS", "-Xmx1g");
            return new ChildProcess(builder.start(), log);
        }

        /** SIGKILL: no shutdown hook, no cancel, no last checkpoint; checks that it was the JVM that died so. */
        void kill() throws InterruptedException {
            ProcessHandle handle = process.toHandle();
            assertThat(handle.info().command()).as("the killed process").hasValueSatisfying(
                    command -> assertThat(Path.of(command).getFileName()).hasToString("java"));
            assertThat(handle.children()).as("children of the JVM").isEmpty();
            process.destroyForcibly();
            assertThat(process.waitFor(1, TimeUnit.MINUTES)).as("the process died").isTrue();
            assertThat(handle.isAlive()).isFalse();
            assertThat(process.exitValue()).as("exit code of a process killed by SIGKILL").isEqualTo(SIGKILL_EXIT_CODE);
        }

        int awaitExit(Duration timeout) throws InterruptedException {
            assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS))
                    .as("the process exited within " + timeout).isTrue();
            return process.exitValue();
        }

        void destroy() throws InterruptedException {
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor(1, TimeUnit.MINUTES);
            }
        }

        /** Prints the output of each child that was started (null: not started), for a failed test. */
        static void printOutputs(ChildProcess... children) {
            for (ChildProcess child : children) {
                if (child != null) {
                    System.out.println("---- output of " + child.log() + " ----\n" + child.output());
                }
            }
        }

        /** Destroys each child that was started and is still alive. */
        static void destroyAll(ChildProcess... children) throws InterruptedException {
            for (ChildProcess child : children) {
                if (child != null) {
                    child.destroy();
                }
            }
        }

        String output() {
            try {
                return Files.readString(log, StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(cannot read " + log + ": " + e + ")";
            }
        }
    }
}
