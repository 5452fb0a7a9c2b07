package io.blobingest.cli.e2e;

import static io.blobingest.cli.e2e.TestEnvironment.runCli;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.storage.FlinkFileSystemStorage;
import io.blobingest.storage.testing.S3ServerExtension;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pipeline writing to S3 (S3Proxy in this JVM, through the flink-s3-fs-hadoop plugin) with the
 * configuration docker-compose.yml runs, {@code deploy/blob-ingest.yaml}: only the servers' addresses,
 * credentials and each test's topics and prefix are overridden.
 */
class S3IngestJobITCase {

    static final int PARTITIONS = 2;
    static final Path DEPLOY_CONFIG =
            Path.of("..", "deploy", "blob-ingest.yaml").toAbsolutePath().normalize();

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    /** The bucket of deploy/blob-ingest.yaml. */
    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension("blob-ingest");

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    @ParameterizedTest(name = "roll policy {0}")
    @ValueSource(strings = {"on-checkpoint", "size-or-time"})
    void everyInputBecomesExactlyOneDescriptorThatReadsBackFromS3(String rollPolicy, @TempDir Path dir)
            throws Exception {
        String name = "happy-" + rollPolicy;
        TestWorkload workload = new TestWorkload(7, 2_000);
        createTopics(name);
        produce(workload, name, 0, workload.count());
        URI base = S3.uri(name);

        RunResult run = runCli(runArgs(name, "--bounded", "-D", "sink.raw-pack.roll-policy=" + rollPolicy));

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(S3.inProgressMultipartUploads())
                .as("uploads left in progress")
                .noneMatch(upload -> upload.key().startsWith(name + "/"));
        PipelineOutput output = PipelineOutput.read(KAFKA, name + "-descriptors", base, new FlinkFileSystemStorage());
        output.assertExactlyOnceAndByteExact(
                workload, IntStream.range(0, workload.count()).boxed().collect(Collectors.toSet()));
        assertThat(KAFKA.drainCommitted(name + "-dead-letters")).isEmpty();

        RunResult verify = runCli(S3CliOptions.withS3Options(S3, "pack", "verify", base.toString()));
        assertThat(verify.exitCode()).as(verify.output()).isZero();
        assertThat(verify.output()).containsPattern("[1-9][0-9]* packs checked, 0 faults");
        assertBlobCatReadsFromS3(output, workload, 5, dir.resolve("dedicated"));
        assertBlobCatReadsFromS3(output, workload, 10, dir.resolve("packed"));
    }

    /** {@code blob cat --base s3://...} of input {@code index} gives the input's bytes. */
    private static void assertBlobCatReadsFromS3(PipelineOutput output, TestWorkload workload, int index, Path out)
            throws Exception {
        DescriptorRow row = output.descriptors.stream()
                .filter(r -> TestWorkload.indexOf(r.attributes()) == index)
                .findFirst()
                .orElseThrow();
        BlobDescriptor blob = row.blob();

        RunResult cat = runCli(S3CliOptions.withS3Options(
                S3,
                "blob",
                "cat",
                "--kind",
                blob.kind().name().toLowerCase(Locale.ROOT),
                "--base",
                output.base.toString(),
                "--set",
                row.blobSet(),
                "--id",
                Long.toString(blob.blobId()),
                "--position",
                Long.toUnsignedString(blob.position()),
                "--size",
                Long.toString(blob.size()),
                "-o",
                out.toString()));

        assertThat(cat.exitCode()).as(cat.output()).isZero();
        assertThat(Files.readAllBytes(out))
                .as("blob cat of input %d (%s)", index, blob)
                .isEqualTo(workload.bytes(index));
    }

    /**
     * A TaskManager dies mid-stream, after some blob sets were committed to S3 and while others are
     * being written; the job restores from its last checkpoint on a new TaskManager and goes on.
     */
    @Test
    void aTaskManagerLostMidStreamLosesAndDuplicatesNothingOnS3(
            @InjectMiniCluster MiniCluster miniCluster, @InjectClusterClient ClusterClient<?> client) throws Exception {
        String name = "failover";
        TestWorkload workload = new TestWorkload(13, 1_000);
        int half = workload.count() / 2;
        createTopics(name);
        produce(workload, name, 0, half);
        // Unbounded, and cancelled at the end: no checkpoint directory, the MiniCluster's own recovery.
        CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> runCli(runArgs(name, "--fresh")));

        awaitManifests(name, 1);
        miniCluster.terminateTaskManager(0).get();
        miniCluster.startTaskManager();
        produce(workload, name, half, workload.count());
        awaitDescriptors(name + "-descriptors", workload.count());
        JobID job = runningJob(client);
        client.cancel(job).get();
        RunResult cancelled = run.get();

        assertThat(cancelled.output()).contains("blob-ingest: " + name);
        PipelineOutput output =
                PipelineOutput.read(KAFKA, name + "-descriptors", S3.uri(name), new FlinkFileSystemStorage());
        output.assertExactlyOnceAndByteExact(
                workload, IntStream.range(0, workload.count()).boxed().collect(Collectors.toSet()));
        Set<String> writerRuns = PipelineOutput.manifests(S3.uri(name)).stream()
                .map(manifest ->
                        manifest.getName().substring(0, manifest.getName().indexOf('-')))
                .collect(Collectors.toSet());
        assertThat(writerRuns)
                .as("writer instances (a restored writer draws a new run id)")
                .hasSizeGreaterThan(PARTITIONS);
        RunResult verify = runCli(
                S3CliOptions.withS3Options(S3, "pack", "verify", S3.uri(name).toString()));
        assertThat(verify.exitCode()).as(verify.output()).isZero();
    }

    /** {@code run} with the deploy configuration, this test's servers, topics and prefix. */
    static String[] runArgs(String name, String... extra) {
        String[] args = TestEnvironment.runArguments(
                        KAFKA, name, name + "-descriptors", name + "-dead-letters", S3.uri(name))
                .add("--config", DEPLOY_CONFIG.toString())
                .checkpointInterval("1s")
                .add(extra)
                .toArray();
        return S3CliOptions.withS3Options(S3, args);
    }

    static void createTopics(String name) throws Exception {
        KAFKA.createTopic(name, PARTITIONS);
        KAFKA.createTopic(name + "-descriptors", 1);
        KAFKA.createTopic(name + "-dead-letters", 1);
    }

    static void produce(TestWorkload workload, String topic, int from, int to) throws Exception {
        List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>();
        for (int i = from; i < to; i++) {
            batch.add(workload.record(topic, PARTITIONS, i));
            if (batch.size() == 200 || i == to - 1) {
                KAFKA.send(batch);
                batch.clear();
            }
        }
    }

    private static void awaitManifests(String prefix, int count) throws InterruptedException {
        Await.until(
                () -> S3.objectKeys(prefix + "/_descriptors/").size() >= count,
                count + " manifests under " + prefix + "/_descriptors/",
                Duration.ofMinutes(2));
    }

    private static void awaitDescriptors(String topic, int distinct) throws InterruptedException {
        Await.until(
                () -> KAFKA.drainCommitted(topic).stream()
                                .map(record -> new String(
                                        record.headers().lastHeader("seq").value()))
                                .distinct()
                                .count()
                        >= distinct,
                distinct + " distinct committed descriptors in " + topic,
                Duration.ofMinutes(3));
    }

    private static JobID runningJob(ClusterClient<?> client) throws Exception {
        return client.listJobs().get().stream()
                .filter(job -> job.getJobState() == JobStatus.RUNNING)
                .map(JobStatusMessage::getJobId)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no running job"));
    }
}
