package io.blobingest.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.testing.FailOnceDescriptorSink;
import io.blobingest.job.testing.FailOncePassThrough;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.kafka.DescriptorKafkaSink;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.sink.BlobTypes;
import io.blobingest.sink.FailOnceCommitSink;
import io.blobingest.sink.Failures;
import io.blobingest.sink.RawPackSink;
import io.blobingest.sink.RollPolicy;
import io.blobingest.sink.StoredBlobs;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real job topology ({@link IngestJob#build(StreamExecutionEnvironment,
 * org.apache.flink.configuration.ReadableConfig, IngestJob.Hooks)}) on a real broker, with one
 * injected failure per run at each point of {@code docs/exactly-once.md}'s failure table, under
 * both roll policies; a fixed-delay restart strategy brings the job back from its last completed
 * checkpoint. Afterwards every input is exactly once in the committed descriptor topic and in the
 * manifests, byte-exact through the Object Layer, every committed pack verifies, and the failed
 * attempts left nothing visible but committed blob sets.
 */
class IngestJobFailoverITCase {

    private static final int PARTITIONS = JobTestEnvironment.PARTITIONS;
    /** 2,000 records: the placement boundaries and 5-20 MiB segments, Packed frames, Inline packets. */
    private static final TestWorkload WORKLOAD = new TestWorkload(11, 2_000);

    private static final long FAIL_AFTER_BLOBS_PER_SUBTASK = WORKLOAD.count() / (3L * PARTITIONS);

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    /** Every run reads the same input topic with its own consumer group and output topics. */
    @BeforeAll
    static void produceWorkload() throws Exception {
        KAFKA.createTopic(JobTestEnvironment.INPUT_TOPIC, PARTITIONS);
        WORKLOAD.send(KAFKA, JobTestEnvironment.INPUT_TOPIC, PARTITIONS, 0, WORKLOAD.count());
    }

    static Stream<Arguments> failures() {
        return Arrays.stream(Failures.Point.values())
                .flatMap(point -> Arrays.stream(RollPolicy.values()).map(policy -> Arguments.of(point, policy)));
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("failures")
    void everyInputExactlyOnceAndByteExactAfterAFailure(Failures.Point failure, RollPolicy policy, @TempDir Path dir)
            throws Exception {
        String runId = UUID.randomUUID().toString();
        String descriptorTopic = "descriptors-" + runId;
        String deadLetterTopic = "dead-letters-" + runId;
        KAFKA.createTopic(descriptorTopic, 1);
        KAFKA.createTopic(deadLetterTopic, 1);
        Path base = dir.resolve("base");
        Configuration config =
                JobTestEnvironment.jobConfiguration(KAFKA, runId, policy, descriptorTopic, deadLetterTopic, base);
        Failures.arm(runId, failure);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        IngestJob.build(env, config, new InjectedFailure(runId, failure));
        env.execute("failover " + failure + " " + policy);

        assertThat(Failures.fired(runId, failure))
                .as("the injected failure %s struck", failure)
                .isTrue();
        assertThat(FailOncePassThrough.restoredSubtasks(runId))
                .as("subtasks restored from a checkpoint")
                .isPositive();
        Set<Integer> all = IntStream.range(0, WORKLOAD.count()).boxed().collect(Collectors.toSet());
        PipelineOutput.read(KAFKA, descriptorTopic, base).assertExactlyOnceAndByteExact(WORKLOAD, all);
        assertThat(KAFKA.drainCommitted(deadLetterTopic)).as("dead letters").isEmpty();
        StoredBlobs stored = new StoredBlobs(base);
        Map<String, List<DescriptorRow>> manifests = stored.committedManifests();
        stored.assertOnlyCommittedFilesAreVisible(manifests);
        for (Map.Entry<String, List<DescriptorRow>> set : manifests.entrySet()) {
            stored.verifyPacks(set.getKey(), set.getValue());
        }
    }

    /** Puts the one armed failure of a run where it belongs in the topology. */
    private record InjectedFailure(String runId, Failures.Point point) implements IngestJob.Hooks {

        @Override
        public DataStream<PlacedBlob> beforeSink(DataStream<PlacedBlob> placed) {
            return placed.map(
                            new FailOncePassThrough(runId, point, FAIL_AFTER_BLOBS_PER_SUBTASK), BlobTypes.PLACED_BLOB)
                    .name("Pass through, fail once " + point)
                    .uid("fail-once-pass-through");
        }

        @Override
        public Sink<PlacedBlob> rawPackSink(RawPackSink sink) {
            return point == Failures.Point.IN_COMMITTER ? new FailOnceCommitSink(sink, runId) : sink;
        }

        @Override
        public Sink<DescriptorRow> descriptorSink(DescriptorKafkaSink sink) {
            return point == Failures.Point.IN_POST_COMMIT_EMISSION
                    ? new FailOnceDescriptorSink(sink, runId, WORKLOAD.count() / 3)
                    : sink;
        }
    }
}
