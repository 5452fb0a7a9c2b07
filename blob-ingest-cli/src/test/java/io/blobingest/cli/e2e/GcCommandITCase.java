package io.blobingest.cli.e2e;

import static io.blobingest.cli.e2e.TestEnvironment.runCli;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.storage.testing.InProgressUpload;
import io.blobingest.storage.testing.S3ServerExtension;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code gc} on S3: a job cancelled while its blob set is open leaves multipart uploads and the
 * {@code _tmp_} objects of {@code persist()}; gc lists them, keeps them within the grace period,
 * and removes them after it, leaving every committed object of an earlier run alone.
 */
class GcCommandITCase {

    static final int PARTITIONS = 2;
    static final String BASE_PREFIX = "gc";
    /** Records before this one of a {@link TestWorkload} are its large boundary cases. */
    static final int FIRST_SMALL_RECORD = 9;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension("blob-ingest");

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    @Test
    void gcListsThenAbortsTheUploadsAndPartsOfACancelledJobButNothingCommitted(
            @InjectClusterClient ClusterClient<?> client) throws Exception {
        RunResult committedRun = runCli(runArgs("committed", new TestWorkload(3, 60), "--bounded"));
        assertThat(committedRun.exitCode()).as(committedRun.output()).isZero();
        List<String> committed = S3.objectKeys(BASE_PREFIX + "/").stream()
                .filter(key -> !key.contains("_tmp_"))
                .toList();
        assertThat(committed).anyMatch(key -> key.endsWith(".arrow")).anyMatch(key -> key.endsWith(".blob"));
        // The sink does not clean up after persist(): a committed size-or-time set keeps its parts.
        List<String> partsOfCommittedSets = persistedParts();

        String[] killedRun = runArgs("killed", new TestWorkload(5, 300), "--fresh");
        CompletableFuture<RunResult> killed = CompletableFuture.supplyAsync(() -> runCli(killedRun));
        Await.until(
                () -> !uploadsUnderBase().isEmpty() && persistedParts().size() > partsOfCommittedSets.size(),
                "an open blob set with multipart uploads and persisted parts",
                Duration.ofMinutes(2));
        cancelRunningJob(client);
        assertThat(killed.get().exitCode()).isEqualTo(io.blobingest.cli.BlobIngestCli.EXIT_FAULT);
        List<InProgressUpload> uploads = uploadsUnderBase();
        List<String> parts = persistedParts();

        RunResult list = runCli(gc("--grace", "0s"));
        assertThat(list.exitCode()).as(list.output()).isZero();
        assertThat(list.output())
                .contains("multipart-upload", "persisted-part", "would remove", " 0 removed")
                .contains(uploads.get(0).uploadId())
                .contains(parts.get(parts.size() - 1));
        assertThat(uploadsUnderBase()).containsExactlyInAnyOrderElementsOf(uploads);
        assertThat(persistedParts()).containsExactlyInAnyOrderElementsOf(parts);

        RunResult withinGrace = runCli(gc("--delete", "--no-checkpoints"));
        assertThat(withinGrace.output())
                .as(withinGrace.output())
                .contains(" 0 removed")
                .contains("kept: younger than 1h");
        assertThat(uploadsUnderBase()).containsExactlyInAnyOrderElementsOf(uploads);

        RunResult delete = runCli(gc("--delete", "--grace", "0s", "--no-checkpoints"));
        assertThat(delete.exitCode()).as(delete.output()).isZero();
        assertThat(delete.output()).contains("aborted", "deleted");
        assertThat(uploadsUnderBase()).isEmpty();
        assertThat(persistedParts()).isEmpty();
        assertThat(S3.objectKeys(BASE_PREFIX + "/")).containsAll(committed);
        RunResult verify = runCli(S3CliOptions.withS3Options(
                S3, "pack", "verify", S3.uri(BASE_PREFIX).toString()));
        assertThat(verify.exitCode()).as(verify.output()).isZero();
    }

    private static String[] gc(String... options) {
        List<String> args =
                new ArrayList<>(List.of("gc", "--base", S3.uri(BASE_PREFIX).toString()));
        args.addAll(List.of(options));
        return S3CliOptions.withS3Options(S3, args.toArray(String[]::new));
    }

    /**
     * A size-or-time run that keeps its set open: uploads stay in progress, each checkpoint persists.
     * Its input is the workload's small records (the 5-20 MiB ones at the start left out): packs
     * are enough to leave uploads and parts.
     */
    private static String[] runArgs(String topic, TestWorkload workload, String... extra) throws Exception {
        KAFKA.createTopic(topic, PARTITIONS);
        KAFKA.createTopic(topic + "-descriptors", 1);
        KAFKA.createTopic(topic + "-dead-letters", 1);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = FIRST_SMALL_RECORD; i < workload.count(); i++) {
            records.add(workload.record(topic, PARTITIONS, i));
        }
        KAFKA.send(records);
        String[] args = TestEnvironment.runArguments(
                        KAFKA, topic, topic + "-descriptors", topic + "-dead-letters", S3.uri(BASE_PREFIX))
                .add("--config", S3IngestJobITCase.DEPLOY_CONFIG.toString())
                .checkpointInterval("1s")
                .set("sink.raw-pack.roll-policy", "size-or-time")
                .set("sink.raw-pack.roll-interval", "1h")
                .add(extra)
                .toArray();
        return S3CliOptions.withS3Options(S3, args);
    }

    private static List<InProgressUpload> uploadsUnderBase() {
        return S3.inProgressMultipartUploads().stream()
                .filter(u -> u.key().startsWith(BASE_PREFIX + "/"))
                .toList();
    }

    private static List<String> persistedParts() {
        return S3.objectKeys(BASE_PREFIX + "/").stream()
                .filter(key -> key.contains("_tmp_"))
                .toList();
    }

    private static void cancelRunningJob(ClusterClient<?> client) throws Exception {
        JobStatusMessage job = client.listJobs().get().stream()
                .filter(j -> j.getJobState() == JobStatus.RUNNING)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no running job"));
        client.cancel(job.getJobId()).get();
    }
}
