package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.e2e.TestEnvironment.RunResult;
import io.blobingest.job.IngestJob;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.lance.LanceOutputOptions;
import io.blobingest.objectlayer.BlobFeatures;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.pack.RawPackFooter;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.pack.RawPackReader;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.Failures;
import io.blobingest.sink.RawPackSink;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.RollPolicy;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exact sharing ({@code sink.raw-pack.exact-sharing: within-job}) in the real job on a real
 * broker, with the Lance output: identical frames and video segments arrive on both partitions,
 * within a blob set and across sets, before and after a failure mid pack write (which loses the
 * open sets, some first copies among them) and across a cancel and a restart from the retained
 * checkpoint, both unbounded. Afterwards every input is exactly one descriptor and one Lance row, byte-exact; each
 * distinct content is stored once: every row carrying it names the same stored object; every pack's
 * footer records each entry's SHA-256, which {@code pack verify} checks; the job's sharing index
 * accumulator counts no more objects than there are distinct contents; and after {@code gc
 * --delete} every descriptor still resolves (a shared object is alive while a manifest names it).
 */
class ExactSharingITCase {

    private static final int PARTITIONS = JobTestEnvironment.PARTITIONS;
    private static final TestWorkload WORKLOAD = new TestWorkload(24, 1_200, true);
    private static final int FIRST_RUN = 600;
    private static final Duration DEADLINE = Duration.ofMinutes(3);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    @TempDir
    Path dir;

    @Test
    void identicalBlobsFromBothPartitionsAreStoredOnceAcrossAFailureAndARestart() throws Exception {
        String runId = UUID.randomUUID().toString();
        String inputTopic = "blobs-" + runId;
        String descriptorTopic = "descriptors-" + runId;
        KAFKA.createTopic(inputTopic, PARTITIONS);
        KAFKA.createTopic(descriptorTopic, 1);
        KAFKA.createTopic("dead-letters-" + runId, 1);
        Path base = dir.resolve("base");
        String datasetUri = dir.resolve("robots.lance").toString();
        Path checkpoints = dir.resolve("checkpoints");
        Configuration config = JobTestEnvironment.jobConfiguration(
                KAFKA, runId, RollPolicy.ON_CHECKPOINT, descriptorTopic, "dead-letters-" + runId, base);
        config.set(BlobKafkaOptions.INPUT_TOPIC, inputTopic);
        config.set(BlobKafkaOptions.GROUP_ID, "sharing-" + runId);
        config.set(BlobKafkaOptions.BOUNDED, false);
        config.set(RawPackSinkOptions.EXACT_SHARING, ExactSharing.WITHIN_JOB);
        config.set(LanceOutputOptions.DATASET_URI, datasetUri);
        config.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        config.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);

        WORKLOAD.send(KAFKA, inputTopic, PARTITIONS, 0, FIRST_RUN);
        Failures.arm(runId, Failures.Point.MID_PACK_WRITE);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        IngestJob.build(env, config, new LanceOutputITCase.FailMidPackWrite(runId));
        JobClient first = env.executeAsync("exact sharing, first run");
        awaitFailureAndLanceRows(runId, datasetUri, FIRST_RUN / 2);
        first.cancel().get();
        WORKLOAD.send(KAFKA, inputTopic, PARTITIONS, FIRST_RUN, WORKLOAD.count());

        Configuration restarted = new Configuration(config);
        restarted.set(StateRecoveryOptions.SAVEPOINT_PATH, LanceOutputITCase.latestRetainedCheckpoint(checkpoints));
        StreamExecutionEnvironment second = StreamExecutionEnvironment.getExecutionEnvironment(restarted);
        IngestJob.build(second, restarted, new LanceOutputITCase.FailMidPackWrite(runId));
        JobClient restart = second.executeAsync("exact sharing, restarted from the retained checkpoint");
        long indexEntries;
        try {
            Await.until(
                    () -> lanceRows(datasetUri) >= WORKLOAD.count()
                            && KAFKA.drainCommitted(descriptorTopic).size() >= WORKLOAD.count(),
                    "every input in the Lance dataset and on the descriptor topic",
                    DEADLINE);
            // A running job's accumulators reach the client with the TaskManager's heartbeats.
            Await.until(
                    () -> sharingIndexEntries(restart) > 0,
                    "the sharing index size in the job's accumulators",
                    DEADLINE);
            indexEntries = sharingIndexEntries(restart);
        } finally {
            restart.cancel().get();
        }

        Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
        PipelineOutput output = PipelineOutput.read(KAFKA, descriptorTopic, base);
        output.assertExactlyOnceAndByteExact(WORKLOAD, all);
        LanceOutputITCase.assertEveryInputOnceAndByteExact(WORKLOAD, datasetUri, Map.of(), WORKLOAD.count());

        Map<Integer, Set<StoredObject>> objectsByContent = assertEachContentStoredOnce(output);
        assertThat(indexEntries)
                .as("objects the writers' indexes remember: each a distinct stored content, at most the index size"
                        + " per subtask")
                .isLessThanOrEqualTo(objectsByContent.size())
                .isLessThanOrEqualTo((long) config.get(RawPackSinkOptions.EXACT_SHARING_INDEX_SIZE) * PARTITIONS);
        assertThat(manifestsRequiring(base, BlobFeatures.BLOB_SHARED_OBJECT))
                .as("manifests whose rows share an object of an earlier blob set")
                .isPositive();
        long uniqueBytes =
                objectsByContent.keySet().stream().mapToLong(WORKLOAD::size).sum();
        assertThat(sidecarBytes(base))
                .as("bytes of every sidecar: the unique contents and the packs' headers and footers")
                .isBetween(uniqueBytes, uniqueBytes + TestWorkload.MIB);

        assertEveryPackRecordsItsEntriesSha256(base);
        RunResult verify = TestEnvironment.runCli("pack", "verify", base.toString());
        assertThat(verify.exitCode())
                .as("pack verify checks each payload against its recorded SHA-256: %s", verify.output())
                .isZero();

        RunResult gc = TestEnvironment.runCli(
                "gc", "--base", base.toUri().toString(), "--delete", "--grace", "0s", "--no-checkpoints");
        assertThat(gc.exitCode()).as(gc.output()).isZero();
        PipelineOutput.read(KAFKA, descriptorTopic, base).assertExactlyOnceAndByteExact(WORKLOAD, all);
    }

    /**
     * A bounded run: the blobs cross a network hop to the writer their content routes them to, so
     * the end of input is held in front of that hop, in the sources' tasks, until the last sets and
     * their descriptors are committed and checked, and behind it only until the writers' tasks have
     * the notifications of the checkpoints they took (DescriptorDrainOperator). Before, the sink
     * refused within-job for bounded input: the end of input, held in the writer's task, waited for
     * checkpoint barriers that task could not read. The Lance output, committed by the same
     * checkpoints, has every row when the job has finished.
     */
    @Test
    void aBoundedRunWithinJobFinishesWithEveryDescriptorDeliveredAndEachContentStoredOnce() throws Exception {
        String runId = UUID.randomUUID().toString();
        String inputTopic = "bounded-blobs-" + runId;
        String descriptorTopic = "descriptors-" + runId;
        String deadLetterTopic = "dead-letters-" + runId;
        KAFKA.createTopic(inputTopic, PARTITIONS);
        KAFKA.createTopic(descriptorTopic, 1);
        KAFKA.createTopic(deadLetterTopic, 1);
        Path base = dir.resolve("bounded-base");
        Configuration config = JobTestEnvironment.jobConfiguration(
                KAFKA, runId, RollPolicy.ON_CHECKPOINT, descriptorTopic, deadLetterTopic, base);
        config.set(BlobKafkaOptions.INPUT_TOPIC, inputTopic);
        config.set(BlobKafkaOptions.BOUNDED, true);
        config.set(RawPackSinkOptions.EXACT_SHARING, ExactSharing.WITHIN_JOB);
        String datasetUri = dir.resolve("bounded.lance").toString();
        config.set(LanceOutputOptions.DATASET_URI, datasetUri);
        WORKLOAD.send(KAFKA, inputTopic, PARTITIONS, 0, WORKLOAD.count());

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        IngestJob.build(env, config, IngestJob.Hooks.NONE);
        env.executeAsync("exact sharing within the job, bounded")
                .getJobExecutionResult()
                .get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

        Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
        PipelineOutput output = PipelineOutput.read(KAFKA, descriptorTopic, base);
        output.assertExactlyOnceAndByteExact(WORKLOAD, all);
        assertThat(KAFKA.drainCommitted(deadLetterTopic)).as("dead letters").isEmpty();
        assertEachContentStoredOnce(output);
        // Read once the job has finished: the Lance output's last transaction is in, not on its way.
        LanceOutputITCase.assertEveryInputOnceAndByteExact(WORKLOAD, datasetUri, Map.of(), WORKLOAD.count());
    }

    /**
     * Every Packed or Dedicated row carrying one content names the same stored object, and more than
     * a hundred rows name an object another row stored.
     *
     * @return the stored objects by content
     */
    private static Map<Integer, Set<StoredObject>> assertEachContentStoredOnce(PipelineOutput output) {
        Map<Integer, Set<StoredObject>> objectsByContent = new HashMap<>();
        for (DescriptorRow row : output.manifestRows) {
            if (row.blob().kind() == BlobKind.PACKED || row.blob().kind() == BlobKind.DEDICATED) {
                int content = WORKLOAD.contentOf(TestWorkload.indexOf(row.attributes()));
                objectsByContent
                        .computeIfAbsent(content, c -> new HashSet<>())
                        .add(new StoredObject(
                                row.blobSet(), row.blob().blobId(), row.blob().position()));
            }
        }
        assertThat(objectsByContent)
                .as("stored objects per distinct content")
                .allSatisfy((content, objects) -> assertThat(objects)
                        .as("objects holding the bytes of record %d", content)
                        .hasSize(1));
        long sharedRows = output.manifestRows.stream()
                        .filter(row -> row.blob().kind() != BlobKind.INLINE
                                && row.blob().kind() != BlobKind.EXTERNAL)
                        .count()
                - objectsByContent.size();
        assertThat(sharedRows).as("rows naming an object another row stored").isGreaterThan(100);
        return objectsByContent;
    }

    /** What a Packed or Dedicated row names. */
    private record StoredObject(String blobSet, long blobId, long position) {}

    private static void awaitFailureAndLanceRows(String runId, String datasetUri, long rows) throws Exception {
        Await.until(
                () -> Failures.fired(runId, Failures.Point.MID_PACK_WRITE) && lanceRows(datasetUri) >= rows,
                "the injected failure and " + rows + " rows in " + datasetUri,
                DEADLINE);
    }

    private static long sharingIndexEntries(JobClient job) {
        try {
            Object entries = job.getAccumulators().get().get(RawPackSink.SHARING_INDEX_ENTRIES_ACCUMULATOR);
            return entries == null ? 0 : (Long) entries;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the accumulators of job " + job.getJobID(), e);
        }
    }

    private static long lanceRows(String datasetUri) {
        try {
            return LanceDatasetRows.count(datasetUri, Map.of());
        } catch (RuntimeException notCreatedYet) {
            return 0;
        }
    }

    private static long manifestsRequiring(Path base, String feature) throws Exception {
        long count = 0;
        for (org.apache.flink.core.fs.Path manifest : PipelineOutput.manifests(base.toUri())) {
            try (DescriptorManifestReader reader = DescriptorManifestReader.open(manifest)) {
                if (reader.requiredFeatures().contains(feature)) {
                    count++;
                }
            }
        }
        return count;
    }

    /** With sharing on, every committed pack's footer has entry_sha256 and knows every entry's hash. */
    private static void assertEveryPackRecordsItsEntriesSha256(Path base) throws Exception {
        List<Path> packs;
        try (Stream<Path> files = Files.walk(base)) {
            packs = files.filter(file -> file.getFileName().toString().endsWith(".blob"))
                    .filter(file -> !file.getFileName().toString().startsWith("."))
                    .filter(ExactSharingITCase::startsWithPackMagic)
                    .toList();
        }
        assertThat(packs).isNotEmpty();
        for (Path pack : packs) {
            try (ReadableObject object = new LocalBlobStorage().open(pack.toUri())) {
                RawPackFooter footer = RawPackReader.withAllFeatures().readFooter(object);
                assertThat(footer.hasEntrySha256()).as(pack.toString()).isTrue();
                for (int i = 0; i < footer.entryCount(); i++) {
                    assertThat(footer.entrySha256(i))
                            .as("entry %d of %s", i, pack)
                            .isPresent();
                }
            }
        }
    }

    private static boolean startsWithPackMagic(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(RawPackFormat.MAGIC_LENGTH), RawPackFormat.MAGIC);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long sidecarBytes(Path base) throws Exception {
        try (Stream<Path> files = Files.walk(base)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".blob"))
                    .filter(file -> !file.getFileName().toString().startsWith("."))
                    .mapToLong(file -> file.toFile().length())
                    .sum();
        }
    }
}
