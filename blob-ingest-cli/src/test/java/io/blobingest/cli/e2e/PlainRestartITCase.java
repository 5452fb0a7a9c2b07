package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec.md section 6.2's plain restart: {@code ./blob-ingest run} in a child JVM is killed with SIGKILL at a
 * moment when a blob set is committed but its descriptors are not (they commit one checkpoint
 * later), then started again with the same command, without {@code --resume}. The restart must
 * deliver those descriptors: every input exactly once, in the descriptor topic and the manifests.
 * Started from the consumer group's offsets, it never delivered the
 * committed sets and placed their inputs a second time in new sets, or skipped them where the
 * group's offsets were already past them.
 */
class PlainRestartITCase {

    private static final int PARTITIONS = 2;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final TestWorkload WORKLOAD = new TestWorkload(29, 1_200);
    private static final int BEFORE_START = 400;
    private static final int BEFORE_KILL = 800;
    private static final String GROUP = "plain-restart";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    @Test
    void aPlainRestartAfterAKillDeliversTheDescriptorsOfSetsCommittedBeforeIt() throws Exception {
        ChildProcess.createTopics(KAFKA, PARTITIONS);
        Path base = dir.resolve("base");
        Path checkpoints = dir.resolve("checkpoints");
        List<String> run = ChildProcess.runCommand(KAFKA, GROUP, base, PARTITIONS, "2s", checkpoints);
        // The same command, bounded so that it ends once it has caught up.
        List<String> restart = new ArrayList<>(run);
        restart.add("--bounded");
        ChildProcess first = null;
        ChildProcess second = null;
        try {
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, 0, BEFORE_START);
            first = ChildProcess.start(run, dir.resolve("first.log"));
            first.awaitCommittedDescriptors(KAFKA, "descriptors", TIMEOUT);
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_START, BEFORE_KILL);
            first.awaitACommittedSetWithoutDescriptors(KAFKA, "descriptors", base, BEFORE_START, TIMEOUT);
            first.kill();

            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_KILL, WORKLOAD.count());
            second = ChildProcess.start(restart, dir.resolve("second.log"));
            assertThat(second.awaitExit(TIMEOUT))
                    .as("exit code of the plain restart")
                    .isZero();

            Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, "descriptors", base).assertExactlyOnceAndByteExact(WORKLOAD, all);
            assertThat(KAFKA.drainCommitted("dead-letters")).as("dead letters").isEmpty();
            StoredBlobs stored = new StoredBlobs(base);
            stored.assertOnlyCommittedFilesAreVisible(stored.committedManifests());
            // The restart claimed the checkpoint it resumed: a later start does not go back to it.
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
}
