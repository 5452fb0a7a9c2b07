package io.blobingest.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.testing.CapturedLog;
import io.blobingest.job.testing.FencingDescriptorSink;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.kafka.BlobKafkaConnectors;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.kafka.DescriptorKafkaSink;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.RollPolicy;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A descriptor transaction fenced on the broker around its commit, by {@link FencingDescriptorSink}.
 * Fenced just before Kafka's committer commits it, the commit fails with {@code
 * ProducerFencedException}, which Kafka's committer only logs; the blob sets whose rows it held are
 * committed, and gone from the committer's state, so the descriptor emitter must learn that the
 * epoch was aborted and emit those sets again. Fenced just after its commit, the transaction's
 * state on the broker ({@code Empty}) no longer says it committed, and the emitter must not send
 * its rows a second time. Either way every input must be exactly once in the committed descriptor
 * topic, whether the emitter learns the outcome on the notification itself or, after a failure
 * during that notification, on restore.
 */
class DescriptorTransactionLossITCase {

    private static final int PARTITIONS = JobTestEnvironment.PARTITIONS;
    private static final String INPUT_TOPIC = JobTestEnvironment.INPUT_TOPIC;
    private static final TestWorkload WORKLOAD = new TestWorkload(23, 600);
    private static final int LAST_RUN_FROM = 100;
    private static final int LAST_RUN_TO = 160;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    @BeforeAll
    static void produceWorkload() throws Exception {
        KAFKA.createTopic(INPUT_TOPIC, PARTITIONS);
        WORKLOAD.send(KAFKA, INPUT_TOPIC, PARTITIONS, 0, WORKLOAD.count());
    }

    @ParameterizedTest(name = "fenced {0}, then {1}")
    @MethodSource("io.blobingest.job.testing.FencingDescriptorSink#faults")
    void everyDescriptorArrivesExactlyOnceAlthoughATransactionOfCommittedSetsWasFenced(
            FencingDescriptorSink.When when, FencingDescriptorSink.Then then, @TempDir Path dir) throws Exception {
        FencedRun run = FencedRun.create(dir);

        String fenced = run.execute(when, then);

        try (Admin admin = Admin.create(run.kafka().adminProperties())) {
            TransactionState state = admin.describeTransactions(List.of(fenced))
                    .description(fenced)
                    .get(1, TimeUnit.MINUTES)
                    .state();
            if (when == FencingDescriptorSink.When.BEFORE_ITS_COMMIT) {
                assertThat(state)
                        .as("the fenced transaction %s never committed", fenced)
                        .isNotIn(TransactionState.COMPLETE_COMMIT, TransactionState.PREPARE_COMMIT);
            } else {
                assertThat(state)
                        .as("the transaction %s fenced after its commit no longer says it committed", fenced)
                        .isEqualTo(TransactionState.EMPTY);
            }
        }
        run.assertEachInputExactlyOnce(0, WORKLOAD.count());
    }

    /**
     * The last descriptor transaction of a bounded run fenced before its commit. Every subtask reads
     * its whole input before the first checkpoint, so it seals one blob set, and the transaction
     * holding that set's descriptors, the first one committed, is also its last. Before the
     * emitter waited for it, the job's final checkpoint committed that transaction unchecked: the
     * job finished with one subtask's descriptors missing and nothing said.
     *
     * <p>With {@code within-job} exact sharing the blobs cross a network hop to the writers, whose
     * task cannot take the checkpoint a re-sent transaction needs once its input has ended: the end
     * of input is held in front of the hop until the emitters report the re-sent descriptors
     * committed. The run must finish without a failover (no restarts allowed).
     */
    @ParameterizedTest(name = "fenced {0}, exact sharing {1}")
    @MethodSource("lastTransactionFaults")
    void theLastDescriptorsOfABoundedRunArriveExactlyOnceAlthoughTheirTransactionWasFenced(
            FencingDescriptorSink.When when, ExactSharing sharing, @TempDir Path dir) throws Exception {
        FencedRun run = FencedRun.create(dir);
        String inputTopic = "last-input-" + run.runId();
        KAFKA.createTopic(inputTopic, PARTITIONS);
        // Past the placement boundaries and the large blobs: read in well under one interval.
        WORKLOAD.send(KAFKA, inputTopic, PARTITIONS, LAST_RUN_FROM, LAST_RUN_TO);
        run.config().set(BlobKafkaOptions.INPUT_TOPIC, inputTopic);
        run.config().set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(2));
        run.config().set(RawPackSinkOptions.EXACT_SHARING, sharing);
        run.config().set(RestartStrategyOptions.RESTART_STRATEGY, "none");

        run.execute(when, FencingDescriptorSink.Then.GO_ON);

        try (Stream<Path> manifests = Files.list(run.base().resolve("_descriptors"))) {
            assertThat(manifests.filter(file -> file.toString().endsWith(".arrow")))
                    .as("one blob set per subtask, so the fenced transaction held a subtask's last descriptors")
                    .hasSize(PARTITIONS);
        }
        run.assertEachInputExactlyOnce(LAST_RUN_FROM, LAST_RUN_TO);
    }

    /** One run of the job, on descriptor and dead-letter topics of its own, with a fenced descriptor sink. */
    private record FencedRun(
            String runId, String descriptorTopic, String deadLetterTopic, Path base, Configuration config) {

        static FencedRun create(Path dir) throws Exception {
            String runId = UUID.randomUUID().toString();
            String descriptorTopic = "descriptors-" + runId;
            String deadLetterTopic = "dead-letters-" + runId;
            KAFKA.createTopic(descriptorTopic, 1);
            KAFKA.createTopic(deadLetterTopic, 1);
            Path base = dir.resolve("base");
            Configuration config = JobTestEnvironment.jobConfiguration(
                    KAFKA, runId, RollPolicy.ON_CHECKPOINT, descriptorTopic, deadLetterTopic, base);
            return new FencedRun(runId, descriptorTopic, deadLetterTopic, base, config);
        }

        BlobKafkaConnectors kafka() {
            return BlobKafkaConnectors.fromConfig(config);
        }

        /** @return the descriptor transaction the run fenced */
        String execute(FencingDescriptorSink.When when, FencingDescriptorSink.Then then) throws Exception {
            Properties adminProperties = kafka().adminProperties();
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
            IngestJob.build(env, config, new IngestJob.Hooks() {
                @Override
                public Sink<DescriptorRow> descriptorSink(DescriptorKafkaSink sink) {
                    return new FencingDescriptorSink(sink, adminProperties, runId, when, then);
                }
            });
            env.execute("descriptor transaction fenced " + when + ", then " + then);

            String fenced = FencingDescriptorSink.fenced(runId);
            assertThat(fenced).as("a descriptor transaction was fenced").isNotNull();
            return fenced;
        }

        /** Inputs {@code from..to-1} each exactly once in the descriptor topic, byte-exact; no dead letters. */
        void assertEachInputExactlyOnce(int from, int to) throws Exception {
            Set<Integer> inputs = IntStream.range(from, to).boxed().collect(Collectors.toSet());
            PipelineOutput.read(KAFKA, descriptorTopic, base).assertExactlyOnceAndByteExact(WORKLOAD, inputs);
            assertThat(KAFKA.drainCommitted(deadLetterTopic)).as("dead letters").isEmpty();
        }
    }

    /**
     * A restore whose descriptor transaction was committed before the failure: the committer's
     * notification throws just after committing it, so the restored committer holds it again. Kafka's
     * committer alone commits it a second time, is refused as fenced, and logs an ERROR saying that
     * this "most likely signals data loss", though the descriptors are delivered; the log must say
     * the truth instead, once.
     */
    @Test
    void aRestoreLogsThatADescriptorTransactionCommittedBeforeTheFailureIsSkippedNotThatDataIsLost(@TempDir Path dir)
            throws Exception {
        FencedRun run = FencedRun.create(dir);

        String committed;
        String log;
        try (CapturedLog captured = new CapturedLog()) {
            committed = run.execute(
                    FencingDescriptorSink.When.NOT_FENCED, FencingDescriptorSink.Then.FAIL_THE_NOTIFICATION);
            log = captured.text();
        }

        assertThat(log)
                .as("the restore's log")
                .contains("injected failure after the commit of descriptor transaction " + committed)
                .contains("INFO RestoredTransactionCommitter - Descriptor transaction " + committed
                        + " committed before the failure: skipped")
                .doesNotContain("data loss")
                .doesNotContain("already fenced");
        run.assertEachInputExactlyOnce(0, WORKLOAD.count());
    }

    static Stream<Arguments> lastTransactionFaults() {
        return Stream.of(FencingDescriptorSink.When.BEFORE_ITS_COMMIT, FencingDescriptorSink.When.AFTER_ITS_COMMIT)
                .flatMap(when -> Stream.of(ExactSharing.OFF, ExactSharing.WITHIN_JOB)
                        .map(sharing -> Arguments.of(when, sharing)));
    }
}
