package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.launch.RetainedCheckpoints;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A changed parallelism on resume keeps each input exactly once (spec.md section 6.5): the same {@code
 * ./blob-ingest run} command over a four-partition input topic, resumed with a lower and then a
 * higher parallelism (4, 2, 3), input arriving while it runs, a failover after each change.
 *
 * <ol>
 *   <li>Run 1 at parallelism 4 (child JVM, unbounded) is killed with SIGKILL while a committed blob
 *       set's descriptors are not committed yet.
 *   <li>Run 2, the same command at parallelism 2, resumes run 1's retained checkpoint (the command
 *       line finds it), its job fails once inside the JVM on its first checkpoint's notification
 *       and restores that checkpoint; more input comes, and it too is SIGKILLed while a committed
 *       set's descriptors are not committed.
 *   <li>Run 3 at parallelism 3, {@code --bounded}, resumes run 2's checkpoint, fails once inside the
 *       job the same way, and must end with exit code 0.
 * </ol>
 *
 * Then every input is exactly once in the descriptor topic and the manifests, byte-exact; no dead
 * letter; only committed files visible; no checkpoint left to resume.
 */
class RescaleITCase {

    private static final int PARTITIONS = 4;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final TestWorkload WORKLOAD = new TestWorkload(61, 1_500);
    /** Input batches: {@code BATCHES[i]..BATCHES[i+1]-1} is sent at step {@code i}. */
    private static final int[] BATCHES = {0, 300, 600, 900, 1_200, 1_500};

    private static final String GROUP = "rescale";
    private static final Pattern RESUMING = Pattern.compile("resuming from (\\S+),");

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    @Test
    void resumesDownAndUpInParallelismWithAFailoverAfterEachChangeAndDeliversEveryInputOnce() throws Exception {
        ChildProcess.createTopics(KAFKA, PARTITIONS);
        Path base = dir.resolve("base");
        Path checkpoints = dir.resolve("checkpoints");
        List<String> command = new ArrayList<>(ChildProcess.runCommand(KAFKA, GROUP, base, 4, "1s", checkpoints));
        int parallelism = command.indexOf("--parallelism") + 1;
        ChildProcess first = null;
        ChildProcess second = null;
        try {
            // Run 1, parallelism 4.
            send(0);
            first = ChildProcess.start(command, dir.resolve("run1.log"));
            first.awaitCommittedDescriptors(KAFKA, "descriptors", TIMEOUT);
            send(1);
            first.awaitACommittedSetWithoutDescriptors(KAFKA, "descriptors", base, BATCHES[1], TIMEOUT);
            first.kill();

            // Run 2, parallelism 2: resumes run 1's checkpoint, fails over once inside the job.
            command.set(parallelism, "2");
            List<String> run2 = new ArrayList<>(command);
            run2.addAll(List.of("-D", FailOnceAtCheckpointOutput.option("rescale-run2", 1)));
            send(2);
            second = ChildProcess.startWithFailureHook(run2, dir.resolve("run2.log"));
            awaitOutput(second, "injected task failure");
            send(3);
            second.awaitACommittedSetWithoutDescriptors(KAFKA, "descriptors", base, BATCHES[3], TIMEOUT);
            second.kill();
            String resumedByRun2 = resumedCheckpoint(second.output());

            // Run 3, parallelism 3, bounded: resumes run 2's checkpoint, fails over once, ends.
            command.set(parallelism, "3");
            List<String> run3 = new ArrayList<>(command);
            run3.addAll(List.of("--bounded", "-D", FailOnceAtCheckpointOutput.option("rescale-run3", 1)));
            send(4);
            long start = System.nanoTime();
            RunResult third = TestEnvironment.runCli(run3.toArray(String[]::new));
            System.out.printf(
                    "run 3 took %d ms%n",
                    Duration.ofNanos(System.nanoTime() - start).toMillis());
            assertThat(third.exitCode()).as(third.output()).isZero();
            assertThat(resumedCheckpoint(third.output()))
                    .as("run 3 resumes run 2's checkpoint")
                    .isNotEqualTo(resumedByRun2);
            assertThat(FailOnceAtCheckpointOutput.fired("rescale-run3"))
                    .as("run 3 failed once inside the job")
                    .isTrue();

            Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, "descriptors", base).assertExactlyOnceAndByteExact(WORKLOAD, all);
            assertThat(KAFKA.drainCommitted("dead-letters")).as("dead letters").isEmpty();
            StoredBlobs stored = new StoredBlobs(base);
            stored.assertOnlyCommittedFilesAreVisible(stored.committedManifests());
            assertThat(RetainedCheckpoints.latest(checkpoints.toUri()))
                    .as("checkpoints left after the bounded run")
                    .isEmpty();
        } catch (AssertionError | Exception e) {
            ChildProcess.printOutputs(first, second);
            throw e;
        } finally {
            ChildProcess.destroyAll(first, second);
        }
    }

    /** Sends input batch {@code step}. */
    private static void send(int step) throws Exception {
        WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BATCHES[step], BATCHES[step + 1]);
    }

    /** The checkpoint a run's output says it resumes; fails if it resumed none. */
    private static String resumedCheckpoint(String output) {
        Matcher matcher = RESUMING.matcher(output);
        assertThat(matcher.find())
                .as("the run resumes a retained checkpoint: " + output)
                .isTrue();
        return matcher.group(1);
    }

    /** Waits until the child's output holds {@code text}, failing if the process ends first. */
    private static void awaitOutput(ChildProcess child, String text) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!child.output().contains(text)) {
            assertThat(child.process().isAlive()).as("the job is still running").isTrue();
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no '" + text + "' in " + child.log() + " within " + TIMEOUT);
            }
            Thread.sleep(200);
        }
    }
}
