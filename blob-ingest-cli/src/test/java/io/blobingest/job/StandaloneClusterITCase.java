package io.blobingest.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.blobingest.job.cluster.FlinkJvm;
import io.blobingest.job.cluster.StandaloneFlinkCluster;
import io.blobingest.kafka.testing.KafkaBrokerExtension;
import io.blobingest.sink.StoredBlobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job on a real Flink 2.2 cluster: a standalone session cluster of child JVMs (JobManager, two
 * TaskManagers of one slot each, memory options from Flink's BashJavaUtils as the {@code bin/}
 * scripts get them), the job jar submitted with Flink's own client ({@code flink run -d}), input
 * flowing from this JVM's broker. While it runs, the TaskManager running the job is killed with
 * SIGKILL and a new one started; the job fails over, restores its latest checkpoint on the new
 * TaskManager and the survivor, and every input, before and after the kill, ends up exactly once
 * on the descriptor topic ({@code read_committed}) and byte-exact through the Object Layer.
 *
 * <p>This is what keeps the job jar honest for clusters: the cluster's classpath is only the Flink
 * artifacts of a distribution's {@code lib/} ({@code target/flink-cluster-lib}), so everything else
 * the job needs must be in the jar. The processes' output and logs stay in {@code
 * target/standalone-cluster/log/}.
 */
class StandaloneClusterITCase {

    private static final Path CLUSTER_HOME =
            Path.of("target", "standalone-cluster").toAbsolutePath();
    private static final String MAIN_CLASS = "io.blobingest.job.cli.JobCli";
    private static final int PARTITIONS = 2;
    private static final int PARALLELISM = 2;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final TestWorkload WORKLOAD = new TestWorkload(37, 1_500);
    /** Produced before the submission; the next part while the job runs; the rest after the kill. */
    private static final int BEFORE_START = 500;

    private static final int BEFORE_KILL = 1_000;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @TempDir
    Path dir;

    @Test
    void everyInputExactlyOnceAfterTheTaskManagerRunningTheJobIsKilled() throws Exception {
        KAFKA.createTopic("blobs", PARTITIONS);
        KAFKA.createTopic("descriptors", 1);
        KAFKA.createTopic("dead-letters", 1);
        Path base = dir.resolve("base");
        deleteRecursively(CLUSTER_HOME);
        // Checkpoints retained where every process finds them (file:// is shared by local JVMs),
        // as a cluster configures them for its jobs (README, "On a Flink cluster").
        Map<String, String> settings = Map.of(
                "taskmanager.numberOfTaskSlots", "1",
                "execution.checkpointing.dir",
                        dir.resolve("checkpoints").toUri().toString(),
                "execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION",
                // A killed TaskManager is noticed within seconds: its heartbeat RPCs fail at once
                // (heartbeat.rpc-failure-threshold, 2), rather than after Flink's 50 s timeout.
                "heartbeat.interval", "2000");
        StandaloneFlinkCluster cluster = null;
        FlinkJvm submit = null;
        try (CommittedOutputs outputs = new CommittedOutputs(KAFKA.bootstrapServers(), "descriptors", "dead-letters")) {
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, 0, BEFORE_START);
            cluster = StandaloneFlinkCluster.start(CLUSTER_HOME, settings, 2);
            submit = cluster.runClient(submitCommand(base), TIMEOUT);
            assertThat(submit.exitCode()).as("exit code of flink run -d").isZero();
            String job = cluster.awaitOnlyJob(TIMEOUT);
            Set<String> running = cluster.awaitTaskManagersRunning(job, tms -> true, "any TaskManager", TIMEOUT);
            assertThat(running)
                    .as("TaskManagers running the job")
                    .isSubsetOf("tm-1", "tm-2")
                    .isNotEmpty();
            outputs.awaitMoreThan(0, TIMEOUT);

            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_START, BEFORE_KILL);
            String victim = running.iterator().next();
            cluster.taskManager(victim).kill();
            // The last records were acknowledged just before the kill: no checkpoint can have
            // committed their descriptors, which needs two more checkpoints.
            assertThat(KAFKA.drainCommitted("descriptors"))
                    .as("descriptors committed when the TaskManager died")
                    .hasSizeLessThan(BEFORE_KILL);
            cluster.startTaskManager();
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, BEFORE_KILL, WORKLOAD.count());

            Set<String> afterFailover = cluster.awaitTaskManagersRunning(
                    job, tms -> tms.contains("tm-3"), "the new TaskManager tm-3", TIMEOUT);
            assertThat(afterFailover)
                    .as("TaskManagers running the job after the failover")
                    .doesNotContain(victim);
            outputs.awaitAll(WORKLOAD.count(), TIMEOUT);
            JsonNode restored = cluster.checkpoints(job).path("latest").path("restored");
            assertThat(restored.path("id").isNumber())
                    .as("the job restored a checkpoint: " + restored)
                    .isTrue();
            cluster.cancel(job, TIMEOUT);

            Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, "descriptors", base).assertExactlyOnceAndByteExact(WORKLOAD, all);
            assertThat(KAFKA.drainCommitted("dead-letters")).as("dead letters").isEmpty();
            StoredBlobs stored = new StoredBlobs(base);
            stored.assertOnlyCommittedFilesAreVisible(stored.committedManifests());
        } catch (AssertionError | Exception e) {
            if (submit != null) {
                System.out.println("---- output of flink run ----\n" + submit.output());
            }
            System.out.println("standalone cluster logs: "
                    + (cluster != null ? cluster.describeLogs() : CLUSTER_HOME.resolve("log")));
            throw e;
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    /** {@code flink run -d -c <main> <jar> run ...}: the job's command line as README gives it for a cluster. */
    private static List<String> submitCommand(Path base) {
        String jar = System.getProperty("blob-ingest.job-jar");
        assertThat(jar).as("system property blob-ingest.job-jar").isNotNull();
        assertThat(Path.of(jar)).as("the job jar (built in the package phase)").isRegularFile();
        List<String> command = new ArrayList<>(List.of("run", "-d", "-c", MAIN_CLASS, jar));
        command.addAll(List.of(
                "run",
                "--bootstrap-servers",
                KAFKA.bootstrapServers(),
                "--input-topic",
                "blobs",
                "--descriptor-topic",
                "descriptors",
                "--dlq-topic",
                "dead-letters",
                "--group-id",
                "standalone-cluster",
                "--base",
                base.toUri().toString(),
                "--parallelism",
                Integer.toString(PARALLELISM),
                "--checkpoint-interval",
                "2s"));
        return command;
    }

    private static void deleteRecursively(Path directory) throws Exception {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(path);
            }
        }
    }
}
