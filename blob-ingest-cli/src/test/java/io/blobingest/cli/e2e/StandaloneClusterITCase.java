package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.blobingest.cli.cluster.FlinkJvm;
import io.blobingest.cli.cluster.StandaloneFlinkCluster;
import io.blobingest.job.launch.RetainedCheckpoints;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.lance.LanceOutputOptions;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
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
 * scripts get them), the job jar submitted with Flink's own client ({@code flink run -d}) and the
 * Lance output's jar added with {@code -C} ({@code sink.lance.dataset-uri} set), input flowing from
 * this JVM's broker. While it runs, the TaskManager running the job is killed with SIGKILL and a
 * new one started; the job fails over, restores its latest checkpoint on the new TaskManager and
 * the survivor, and every input, before and after the kill, ends up exactly once on the descriptor
 * topic ({@code read_committed}) and byte-exact through the Object Layer, and exactly once as a row
 * of the Lance dataset, byte-exact through Lance's own {@code takeBlobs}.
 *
 * <p>This is what keeps the job jar and the Lance jar honest for clusters: the cluster's classpath
 * is only the Flink artifacts of a distribution's {@code lib/} ({@code target/flink-cluster-lib}),
 * so everything else the job needs must be in the two jars, loaded by Flink's child-first user code
 * class loader, Lance's natives included. The processes' output and logs stay in {@code
 * target/standalone-cluster/log/}.
 */
class StandaloneClusterITCase {

    private static final Path CLUSTER_HOME =
            Path.of("target", "standalone-cluster").toAbsolutePath();
    private static final String MAIN_CLASS = "io.blobingest.job.launch.JobCli";
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
    void everyInputExactlyOnceOnTheTopicAndInLanceAfterTheTaskManagerRunningTheJobIsKilled() throws Exception {
        KAFKA.createTopic("blobs", PARTITIONS);
        KAFKA.createTopic("descriptors", 1);
        KAFKA.createTopic("dead-letters", 1);
        Path base = dir.resolve("base");
        String dataset = dir.resolve("robots.lance").toString();
        deleteRecursively(CLUSTER_HOME);
        // Lance copies its 181 MB native library into java.io.tmpdir for each user code class loader
        // and deletes the copy only when the JVM exits normally: here, not in /tmp, where a killed
        // TaskManager's copy would stay (docs/lance.md, "Packaging").
        Path taskManagerTmp = Files.createDirectories(CLUSTER_HOME.resolve("tmp"));
        // Checkpoints retained where every process finds them (file:// is shared by local JVMs),
        // as a cluster configures them for its jobs (README, "On a Flink cluster").
        Map<String, String> settings = Map.of(
                "taskmanager.numberOfTaskSlots", "1",
                "execution.checkpointing.dir",
                        dir.resolve("checkpoints").toUri().toString(),
                "execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION",
                // A killed TaskManager is noticed within seconds: its heartbeat RPCs fail at once
                // (heartbeat.rpc-failure-threshold, 2), rather than after Flink's 50 s timeout.
                "heartbeat.interval", "2000",
                "env.java.opts.taskmanager", "-Djava.io.tmpdir=" + taskManagerTmp,
                // Flink's default, named because it matters: Lance 7.0.0's JNI dispatcher thread dies
                // with NoClassDefFoundError under a user code class loader (docs/lance.md, "Packaging"),
                // which with FAIL would end the TaskManager.
                "cluster.uncaught-exception-handling", "LOG");
        StandaloneFlinkCluster cluster = null;
        FlinkJvm submit = null;
        try (CommittedOutputs outputs = new CommittedOutputs(KAFKA.bootstrapServers(), "descriptors", "dead-letters")) {
            WORKLOAD.send(KAFKA, "blobs", PARTITIONS, 0, BEFORE_START);
            cluster = StandaloneFlinkCluster.start(CLUSTER_HOME, settings, 2);
            submit = cluster.runClient(submitCommand(base, dataset), TIMEOUT);
            assertThat(submit.exitCode()).as("exit code of flink run -d").isZero();
            String job = cluster.awaitOnlyJob(TIMEOUT);
            // flink run's client fixed the job's id before submission and recorded the job's lineage
            // (its group) and base in its directory under the cluster's execution.checkpointing.dir.
            assertThat(Files.readAllLines(
                            dir.resolve("checkpoints").resolve(job).resolve(RetainedCheckpoints.LINEAGE_RECORD)))
                    .as("the lineage record of job " + job)
                    .startsWith("standalone-cluster", "base=file:" + base);
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
            awaitLanceRows(dataset, WORKLOAD.count());
            JsonNode restored = cluster.checkpoints(job).path("latest").path("restored");
            assertThat(restored.path("id").isNumber())
                    .as("the job restored a checkpoint: " + restored)
                    .isTrue();
            cluster.cancel(job, TIMEOUT);

            Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, "descriptors", base).assertExactlyOnceAndByteExact(WORKLOAD, all);
            assertThat(KAFKA.drainCommitted("dead-letters")).as("dead letters").isEmpty();
            LanceOutputITCase.assertEveryInputOnceAndByteExact(WORKLOAD, dataset, Map.of(), WORKLOAD.count());
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

    /**
     * {@code flink run -d -C <Lance jar> -c <main> <jar> run ... -D sink.lance.dataset-uri=...}: the
     * job's command line as README and docs/lance.md give it for a cluster.
     */
    private static List<String> submitCommand(Path base, String dataset) {
        String jar = builtJar("blob-ingest.job-jar", "the job jar");
        String lanceJar = builtJar("blob-ingest.lance-jar", "the Lance output's jar");
        List<String> command = new ArrayList<>(
                List.of("run", "-d", "-C", Path.of(lanceJar).toUri().toString(), "-c", MAIN_CLASS, jar));
        command.addAll(TestEnvironment.runArguments(KAFKA, "blobs", "descriptors", "dead-letters", base.toUri())
                .groupId("standalone-cluster")
                .parallelism(PARALLELISM)
                .checkpointInterval("2s")
                .set(LanceOutputOptions.DATASET_URI.key(), dataset)
                .toList());
        return command;
    }

    /** The jar the system property {@code property} names, which the package phase built. */
    private static String builtJar(String property, String what) {
        String jar = System.getProperty(property);
        assertThat(jar).as("system property " + property).isNotNull();
        assertThat(Path.of(jar)).as(what + " (built in the package phase)").isRegularFile();
        return jar;
    }

    /** Until the dataset holds {@code rows} rows: its last checkpoint's transaction can follow the topic's. */
    private static void awaitLanceRows(String dataset, long rows) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        long found = 0;
        while (true) {
            try {
                found = LanceDatasetRows.count(dataset, Map.of());
            } catch (RuntimeException notCreatedYet) {
                found = 0;
            }
            if (found >= rows) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "expected " + rows + " rows in " + dataset + " within " + TIMEOUT + ", found " + found);
            }
            Thread.sleep(500);
        }
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
