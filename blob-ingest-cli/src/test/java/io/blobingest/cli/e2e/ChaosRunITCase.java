package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.blobingest.cli.e2e.ChaosSchedule.Fault;
import io.blobingest.job.IngestJob;
import io.blobingest.job.IngestJobOptions;
import io.blobingest.job.launch.RetainedCheckpoints;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.sink.BlobTypes;
import io.blobingest.sink.FailOnceCommitSink;
import io.blobingest.sink.Failures;
import io.blobingest.sink.RawPackSink;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.RollPolicy;
import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.storage.testing.S3ServerExtension;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos run: 21,000 records of every shape through the real job, on a real broker
 * and S3 server, while six different faults strike one after another, each armed by the test and
 * struck by a count-based hook, never by timing luck. Phase A runs the job in this JVM's
 * MiniCluster with the {@code s3://} base for the first five faults, one 3,000-record chunk each:
 * a task exception mid-pack; a failure after a checkpoint completed and before the task was
 * notified; the Kafka broker restarted mid-stream; the S3 server stopped as a commit begins and
 * restarted after it failed; the disk the S3 writer buffers on full. Phase A is then cancelled
 * (its last checkpoint retained); phase B resumes it with {@code ./blob-ingest run --resume} in a
 * child JVM, kills that JVM with SIGKILL mid-stream and resumes again with {@code --resume
 * --bounded}. Afterwards every input is exactly once a descriptor or a dead letter, byte-exact
 * through the Object Layer, every pack verifies, and storage shows nothing but committed blob
 * sets. The faults, counts and time are printed to stdout (docs/exactly-once.md, "The chaos run").
 */
class ChaosRunITCase {

    private static final int PARTITIONS = 2;
    private static final int CHUNK = 3_000;
    private static final List<Fault> PHASE_A = List.of(
            Fault.TASK_EXCEPTION_MID_PACK,
            Fault.FAILURE_BETWEEN_CHECKPOINT_COMPLETION_AND_NOTIFICATION,
            Fault.BROKER_RESTART,
            Fault.S3_RESTART_DURING_COMMIT,
            Fault.DISK_FULL);
    /** Phase A's chunks, then phase B's: one before the kill, one after it. */
    private static final int INPUTS = (PHASE_A.size() + 2) * CHUNK;

    private static final String RUN_ID = "chaos";
    private static final String INPUT_TOPIC = "chaos-blobs";
    private static final String DESCRIPTOR_TOPIC = "chaos-descriptors";
    private static final String DEAD_LETTER_TOPIC = "chaos-dead-letters";
    private static final String PREFIX = "chaos";
    private static final Duration STEP_TIMEOUT = Duration.ofMinutes(4);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS, exceptionHistory());

    /** One line of the report per fault: what it did and what the job did about it. */
    private record Struck(Fault fault, String evidence, int jobFailures, int restoredSubtasks, double seconds) {}

    @Test
    void everyInputExactlyOnceAndByteExactThroughSixFaults(
            @InjectMiniCluster MiniCluster miniCluster, @TempDir Path dir) throws Exception {
        long start = System.nanoTime();
        Optional<SmallDisk> disk = SmallDisk.mount(dir.resolve("s3-buffers"), 64);
        assumeTrue(disk.isPresent(), "the disk-full fault needs a tmpfs of its own, which only root can mount");
        ChaosWorkload workload = new ChaosWorkload(29, dir.resolve("external"));
        workload.writeExternalFiles();
        KAFKA.createTopic(INPUT_TOPIC, PARTITIONS);
        KAFKA.createTopic(DESCRIPTOR_TOPIC, 1);
        KAFKA.createTopic(DEAD_LETTER_TOPIC, 1);
        Path checkpoints = dir.resolve("checkpoints");
        List<Struck> report = new ArrayList<>();
        try (SmallDisk buffers = disk.get();
                CommittedOutputs outputs =
                        new CommittedOutputs(KAFKA.bootstrapServers(), DESCRIPTOR_TOPIC, DEAD_LETTER_TOPIC)) {
            Configuration fileSystems = S3.flinkConfiguration();
            fileSystems.set(CoreOptions.TMP_DIRS, buffers.directory().toString());
            // Few, short S3A retries: a commit against the stopped server fails within seconds.
            fileSystems.setString("fs.s3a.attempts.maximum", "2");
            fileSystems.setString("fs.s3a.retry.limit", "2");
            fileSystems.setString("fs.s3a.retry.interval", "100ms");
            S3.initializeFlinkFileSystems(fileSystems);

            Configuration config = jobConfiguration(workload, checkpoints);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
            IngestJob.build(env, config, new ChaosHooks(buffers.directory().resolve("ballast")));
            JobClient phaseA = env.executeAsync("chaos phase A");
            int produced = 0;
            for (Fault fault : PHASE_A) {
                long faultStart = System.nanoTime();
                int failuresBefore = jobFailures(miniCluster, phaseA.getJobID()).size();
                int restoredBefore = ChaosSchedule.restoredSubtasks();
                ChaosSchedule.arm(fault);
                if (fault == Fault.S3_RESTART_DURING_COMMIT) {
                    Failures.arm(RUN_ID, Failures.Point.IN_COMMITTER);
                }
                workload.send(KAFKA, INPUT_TOPIC, PARTITIONS, produced, produced + CHUNK);
                produced += CHUNK;
                if (fault == Fault.BROKER_RESTART) {
                    ChaosSchedule.awaitBrokerRestartDue(STEP_TIMEOUT);
                    int before = outputs.count();
                    assertThat(before)
                            .as("inputs with committed outputs when the broker restart was due")
                            .isLessThan(produced);
                    KAFKA.restartBroker();
                    ChaosSchedule.addEvidence(
                            fault,
                            "restarted on " + KAFKA.bootstrapServers() + " with " + before + " of " + produced
                                    + " inputs' outputs committed");
                }
                Await.until(() -> ChaosSchedule.struck(fault), fault + " striking", STEP_TIMEOUT);
                outputs.awaitAll(produced, STEP_TIMEOUT);
                List<String> failures = jobFailures(miniCluster, phaseA.getJobID());
                Struck struck = new Struck(
                        fault,
                        ChaosSchedule.evidence(fault),
                        failures.size() - failuresBefore,
                        ChaosSchedule.restoredSubtasks() - restoredBefore,
                        seconds(faultStart));
                report.add(struck);
                assertStruck(struck, failures.subList(failuresBefore, failures.size()));
            }
            phaseA.cancel().get();
            Await.until(() -> jobStatus(phaseA) == JobStatus.CANCELED, "phase A cancelled", STEP_TIMEOUT);
            report.add(processKillAndResume(workload, outputs, checkpoints, dir, produced));
        } finally {
            printReport(report, workload, start);
        }
        new ChaosOutcome(KAFKA, S3, PREFIX, DESCRIPTOR_TOPIC, DEAD_LETTER_TOPIC, false)
                .assertEveryInputExactlyOnce(workload, INPUTS);
        System.out.printf("chaos run: checks done, %.1f s in all%n", seconds(start));
    }

    /**
     * Phase B: {@code ./blob-ingest run --resume} restores phase A's retained checkpoint in a child
     * JVM, which is killed with SIGKILL while a chunk is in flight; {@code run --resume --bounded}
     * restores its last checkpoint and reads to the end.
     */
    private Struck processKillAndResume(
            ChaosWorkload workload, CommittedOutputs outputs, Path checkpoints, Path dir, int produced)
            throws Exception {
        long faultStart = System.nanoTime();
        List<String> run = runArguments(workload, checkpoints);
        List<String> resumeBounded = new ArrayList<>(run);
        resumeBounded.add("--bounded");
        ChildProcess first = null;
        ChildProcess second = null;
        try {
            int half = CHUNK / 2;
            workload.send(KAFKA, INPUT_TOPIC, PARTITIONS, produced, produced + half);
            URI restoredByFirst =
                    RetainedCheckpoints.latest(checkpoints.toUri()).orElseThrow();
            first = ChildProcess.start(run, dir.resolve("resumed.log"));
            outputs.awaitMoreThan(produced, STEP_TIMEOUT);
            workload.send(KAFKA, INPUT_TOPIC, PARTITIONS, produced + half, produced + CHUNK);
            produced += CHUNK;
            first.kill();
            int atKill = outputs.count();
            // The inputs sent last were acknowledged just before the kill: the checkpoint that would
            // commit their descriptors cannot have completed.
            assertThat(atKill)
                    .as("inputs with committed outputs when the process was killed")
                    .isLessThan(produced);
            workload.send(KAFKA, INPUT_TOPIC, PARTITIONS, produced, produced + CHUNK);
            produced += CHUNK;
            URI restoredBySecond =
                    RetainedCheckpoints.latest(checkpoints.toUri()).orElseThrow();
            assertThat(restoredBySecond)
                    .as("the checkpoint the resumed bounded run restores")
                    .isNotEqualTo(restoredByFirst);
            second = ChildProcess.start(resumeBounded, dir.resolve("resumed-bounded.log"));
            assertThat(second.awaitExit(STEP_TIMEOUT))
                    .as("exit code of the resumed bounded run")
                    .isZero();
            assertThat(second.output()).contains("blob-ingest: job ");
            outputs.awaitAll(produced, STEP_TIMEOUT);
            return new Struck(
                    Fault.PROCESS_KILL,
                    String.format(
                            "run --resume restored phase A's %s; SIGKILL of its JVM"
                                    + " (exit %d) with %d of %d inputs' outputs committed; run --resume --bounded"
                                    + " restored the killed"
                                    + " run's %s",
                            checkpoints.toUri().relativize(restoredByFirst),
                            first.process().exitValue(),
                            atKill,
                            produced - CHUNK,
                            checkpoints.toUri().relativize(restoredBySecond)),
                    1,
                    -1,
                    seconds(faultStart));
        } catch (AssertionError | Exception e) {
            ChildProcess.printOutputs(first, second);
            throw e;
        } finally {
            ChildProcess.destroyAll(first, second);
        }
    }

    /** Each phase A fault struck, made the job fail where it should, and the job restored from a checkpoint. */
    private static void assertStruck(Struck struck, List<String> failures) {
        String failed = String.join("\n", failures);
        switch (struck.fault()) {
            case TASK_EXCEPTION_MID_PACK, FAILURE_BETWEEN_CHECKPOINT_COMPLETION_AND_NOTIFICATION ->
                assertThat(failed)
                        .as("the job failures while %s was armed", struck.fault())
                        .contains("injected chaos fault " + struck.fault());
            case S3_RESTART_DURING_COMMIT ->
                assertThat(struck.evidence())
                        .as("evidence of %s", struck.fault())
                        .contains("the commit failed");
            case DISK_FULL -> {
                assertThat(failed)
                        .as("the job failures while the disk was full")
                        .contains("No space left on device");
                assertThat(struck.evidence()).contains("freed by a restored subtask");
            }
            default -> {}
        }
        if (struck.fault() != Fault.BROKER_RESTART) {
            assertThat(struck.jobFailures())
                    .as("job failures caused by %s", struck.fault())
                    .isPositive();
            assertThat(struck.restoredSubtasks())
                    .as("subtasks restored from a checkpoint after %s", struck.fault())
                    .isPositive();
        }
    }

    /**
     * The {@code S3_RESTART_DURING_COMMIT} strike, in place of one commit call of a Raw Pack
     * committer: the S3 server stops, the real commit runs against it and fails, the server starts
     * again on its port, and the failure fails the job, which restores and commits again.
     */
    private static void s3OutageDuringCommit(
            Committer<BlobSetCommittable> committer, Collection<Committer.CommitRequest<BlobSetCommittable>> requests)
            throws IOException, InterruptedException {
        if (requests.isEmpty()) {
            Failures.arm(RUN_ID, Failures.Point.IN_COMMITTER);
            committer.commit(requests);
            return;
        }
        List<String> sets =
                requests.stream().map(r -> r.getCommittable().blobSet()).toList();
        assertThat(ChaosSchedule.strike(
                        Fault.S3_RESTART_DURING_COMMIT, "S3 server stopped as the commit of " + sets + " began"))
                .isTrue();
        Exception failure = null;
        try {
            S3.stopServer();
            committer.commit(requests);
        } catch (Exception e) {
            failure = e;
        } finally {
            try {
                S3.restartServer();
            } catch (Exception e) {
                throw new IllegalStateException("cannot restart the S3 server", e);
            }
        }
        ChaosSchedule.addEvidence(
                Fault.S3_RESTART_DURING_COMMIT,
                (failure == null ? "the commit went through" : "the commit failed: " + firstLine(failure))
                        + "; server restarted on " + S3.endpoint());
        if (failure instanceof IOException io) {
            throw io;
        }
        if (failure != null) {
            throw new IllegalStateException("commit during the S3 outage", failure);
        }
    }

    /** The chaos hooks in the real topology: the pass-through in front of the sink, the committer's outage. */
    private record ChaosHooks(Path ballast) implements IngestJob.Hooks {

        @Override
        public DataStream<PlacedBlob> beforeSink(DataStream<PlacedBlob> placed) {
            return placed.map(new ChaosPassThrough(ballast), BlobTypes.PLACED_BLOB)
                    .name("Chaos pass-through")
                    .uid("chaos-pass-through");
        }

        @Override
        public Sink<PlacedBlob> rawPackSink(RawPackSink sink) {
            return new FailOnceCommitSink(sink, RUN_ID, ChaosRunITCase::s3OutageDuringCommit);
        }
    }

    /** Phase A's job: the settings {@link #runArguments} gives the command line in phase B. */
    private static Configuration jobConfiguration(ChaosWorkload workload, Path checkpoints) {
        Configuration config = new Configuration();
        config.set(BlobKafkaOptions.BOOTSTRAP_SERVERS, KAFKA.bootstrapServers());
        config.set(BlobKafkaOptions.INPUT_TOPIC, INPUT_TOPIC);
        config.set(BlobKafkaOptions.DESCRIPTOR_TOPIC, DESCRIPTOR_TOPIC);
        config.set(BlobKafkaOptions.DEAD_LETTER_TOPIC, DEAD_LETTER_TOPIC);
        config.set(BlobKafkaOptions.GROUP_ID, RUN_ID);
        config.set(RawPackSinkOptions.BASE_PATH, S3.uri(PREFIX).toString());
        config.set(RawPackSinkOptions.ROLL_POLICY, RollPolicy.ON_CHECKPOINT);
        config.set(RawPackSinkOptions.PACK_TARGET_SIZE, MemorySize.ofMebiBytes(6));
        config.set(IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES, List.of(workload.allowedPrefix()));
        config.set(CoreOptions.DEFAULT_PARALLELISM, PARTITIONS);
        config.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(1));
        config.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        config.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 30);
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(500));
        // Phase B's run --resume takes only checkpoints recorded under the job's lineage (its group).
        LineageRecord.writeFor(config);
        return config;
    }

    private static List<String> runArguments(ChaosWorkload workload, Path checkpoints) {
        return List.of(S3CliOptions.withS3Options(
                S3,
                TestEnvironment.runArguments(KAFKA, INPUT_TOPIC, DESCRIPTOR_TOPIC, DEAD_LETTER_TOPIC, S3.uri(PREFIX))
                        .groupId(RUN_ID)
                        .parallelism(PARTITIONS)
                        .checkpointInterval("1s")
                        .checkpointDir(checkpoints)
                        .add("--resume")
                        .set("sink.raw-pack.roll-policy", "on-checkpoint")
                        .set("sink.raw-pack.pack-target-size", "6mb")
                        .set("external.allowed-prefixes", workload.allowedPrefix())
                        .toArray()));
    }

    private static void printReport(List<Struck> report, ChaosWorkload workload, long start) {
        System.out.printf(
                "chaos run: %d inputs (%s), %d faults struck, %.1f s so far%n",
                INPUTS, workload.describeShapes(INPUTS), report.size(), seconds(start));
        for (Struck struck : report) {
            System.out.printf(
                    "  %-55s %5.1f s  job failures %d, subtasks restored %s: %s%n",
                    struck.fault(),
                    struck.seconds(),
                    struck.jobFailures(),
                    struck.restoredSubtasks() < 0 ? "(whole job)" : Integer.toString(struck.restoredSubtasks()),
                    struck.evidence());
        }
    }

    /** The root causes in the job's exception history, oldest first, each with its stack trace. */
    private static List<String> jobFailures(MiniCluster miniCluster, JobID job) throws Exception {
        URI rest = miniCluster.getRestAddress().get();
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(rest.resolve("/jobs/" + job + "/exceptions?maxExceptions=1000"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode entries = new ObjectMapper()
                .readTree(response.body())
                .path("exceptionHistory")
                .path("entries");
        List<String> failures = new ArrayList<>();
        for (JsonNode entry : entries) {
            StringBuilder text = new StringBuilder(entry.path("stacktrace").asText());
            for (JsonNode concurrent : entry.path("concurrentExceptions")) {
                text.append('\n').append(concurrent.path("stacktrace").asText());
            }
            failures.add(0, text.toString());
        }
        return failures;
    }

    private static JobStatus jobStatus(JobClient job) {
        try {
            return job.getJobStatus().get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot get the status of job " + job.getJobID(), e);
        }
    }

    private static Configuration exceptionHistory() {
        Configuration config = new Configuration();
        config.set(WebOptions.MAX_EXCEPTION_HISTORY_SIZE, 1000);
        return config;
    }

    /** The failure's class and the start of its message: the report quotes it on one line. */
    private static String firstLine(Exception failure) {
        String text = failure.toString();
        return text.length() > 160 ? text.substring(0, 160) + "..." : text;
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
