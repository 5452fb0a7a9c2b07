package io.blobingest.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.testing.FencingDeadLetterSink;
import io.blobingest.job.testing.FencingDescriptorSink;
import io.blobingest.job.testing.JobTestEnvironment;
import io.blobingest.job.testing.PipelineOutput;
import io.blobingest.job.testing.TestWorkload;
import io.blobingest.kafka.BlobKafkaConnectors;
import io.blobingest.kafka.BlobKafkaOptions;
import io.blobingest.placement.BlobHeaders;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.sink.BlobTypes;
import io.blobingest.sink.RollPolicy;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A dead-letter transaction fenced on the broker around its commit, by {@link FencingDeadLetterSink}
 * (spec.md section 6.1: each input yields exactly one descriptor or one dead letter). Fenced just before
 * Kafka's committer commits it, the commit fails with {@code ProducerFencedException}, which Kafka's
 * committer only logs; the source has read past the refused inputs, so the dead letters must be
 * sent again from their inputs. Fenced just after its commit, the transaction's state on the broker
 * ({@code Empty}) no longer says it committed, and its dead letters must not be sent a second time.
 * Either way, and whether the outcome is learned on the notification or, after a failure during it,
 * on restore, every input is one descriptor or one dead letter, once.
 */
class DeadLetterTransactionLossITCase {

    private static final int PARTITIONS = JobTestEnvironment.PARTITIONS;
    private static final TestWorkload WORKLOAD = new TestWorkload(29, 400);
    /** Past the placement boundaries and the large blobs. */
    private static final int FROM = 100;

    private static final int TO = 400;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = JobTestEnvironment.miniCluster(PARTITIONS);

    /** Every fifth input is refused: a null value without {@code blob.uri}. */
    static boolean bad(int index) {
        return index % 5 == 2;
    }

    @ParameterizedTest(name = "fenced {0}, then {1}")
    @MethodSource("faults")
    void everyInputIsOneDescriptorOrOneDeadLetterAlthoughADeadLetterTransactionWasFenced(
            FencingDescriptorSink.When when, FencingDescriptorSink.Then then, @TempDir Path dir) throws Exception {
        String runId = UUID.randomUUID().toString();
        String inputTopic = "input-" + runId;
        String descriptorTopic = "descriptors-" + runId;
        String deadLetterTopic = "dead-letters-" + runId;
        KAFKA.createTopic(inputTopic, PARTITIONS);
        KAFKA.createTopic(descriptorTopic, 1);
        KAFKA.createTopic(deadLetterTopic, 1);
        sendInputs(inputTopic);
        Path base = dir.resolve("base");
        Configuration config = JobTestEnvironment.jobConfiguration(
                KAFKA, runId, RollPolicy.ON_CHECKPOINT, descriptorTopic, deadLetterTopic, base);
        config.set(BlobKafkaOptions.INPUT_TOPIC, inputTopic);
        Properties adminProperties = BlobKafkaConnectors.fromConfig(config).adminProperties();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        IngestJob.build(env, config, new IngestJob.Hooks() {
            @Override
            public DataStream<PlacedBlob> beforeSink(DataStream<PlacedBlob> placed) {
                // Slow enough that the inputs, and so the dead letters, span several checkpoints.
                return placed.map(
                                blob -> {
                                    Thread.sleep(5);
                                    return blob;
                                },
                                BlobTypes.PLACED_BLOB)
                        .name("Slow down")
                        .uid("slow-down");
            }

            @Override
            public Sink<DeadLetter> deadLetterSink(KafkaSink<DeadLetter> sink) {
                return new FencingDeadLetterSink(sink, adminProperties, runId, when, then);
            }
        });
        long started = System.nanoTime();
        env.execute("dead-letter transaction fenced " + when + ", then " + then);
        System.out.printf(
                "dead-letter transaction fenced %s, then %s: the job ran %d ms%n",
                when, then, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));

        String fenced = FencingDeadLetterSink.fenced(runId);
        assertThat(fenced).as("a dead-letter transaction was fenced").isNotNull();
        try (Admin admin = Admin.create(adminProperties)) {
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

        Set<Integer> good =
                IntStream.range(FROM, TO).filter(i -> !bad(i)).boxed().collect(Collectors.toSet());
        Set<Integer> refused =
                IntStream.range(FROM, TO).filter(i -> bad(i)).boxed().collect(Collectors.toSet());
        PipelineOutput.read(KAFKA, descriptorTopic, base).assertExactlyOnceAndByteExact(WORKLOAD, good);
        assertEachRefusedInputDeadLetteredOnce(KAFKA.drainCommitted(deadLetterTopic), refused);
    }

    private static void sendInputs(String topic) throws Exception {
        List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>();
        for (int i = FROM; i < TO; i++) {
            batch.add(
                    bad(i)
                            ? new ProducerRecord<>(topic, i % PARTITIONS, WORKLOAD.key(i), null, WORKLOAD.headers(i))
                            : WORKLOAD.record(topic, PARTITIONS, i));
        }
        KAFKA.send(batch);
    }

    /** Each refused input once in the dead-letter topic, unchanged, with its code. */
    static void assertEachRefusedInputDeadLetteredOnce(
            List<ConsumerRecord<byte[], byte[]>> deadLetters, Set<Integer> refused) {
        Map<Integer, Integer> seen = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> deadLetter : deadLetters) {
            int index = Integer.parseInt(
                    new String(deadLetter.headers().lastHeader("seq").value(), StandardCharsets.UTF_8));
            seen.merge(index, 1, Integer::sum);
            assertThat(deadLetter.key()).as("key of dead letter %d", index).isEqualTo(WORKLOAD.key(index));
            assertThat(deadLetter.value()).as("value of dead letter %d", index).isNull();
            assertThat(new String(
                            deadLetter.headers().lastHeader(BlobHeaders.ERROR).value(), StandardCharsets.UTF_8))
                    .as("code of dead letter %d", index)
                    .isEqualTo(DeadLetterCode.NULL_VALUE.wireName());
            List<String> inputHeaders = new ArrayList<>();
            for (Header header : deadLetter.headers()) {
                if (!header.key().startsWith("blob.error")) {
                    inputHeaders.add(header.key() + "=" + Arrays.toString(header.value()));
                }
            }
            assertThat(inputHeaders)
                    .as("headers of dead letter %d", index)
                    .isEqualTo(WORKLOAD.headers(index).stream()
                            .map(h -> h.key() + "=" + Arrays.toString(h.value()))
                            .toList());
        }
        Set<Integer> missing =
                refused.stream().filter(i -> !seen.containsKey(i)).collect(Collectors.toSet());
        Map<Integer, Integer> twice = seen.entrySet().stream()
                .filter(e -> e.getValue() > 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertThat(missing)
                .as("refused inputs missing from the dead-letter topic")
                .isEmpty();
        assertThat(twice)
                .as("refused inputs seen more than once in the dead-letter topic")
                .isEmpty();
        assertThat(seen.keySet()).as("dead-lettered inputs").isEqualTo(refused);
    }

    static Stream<Arguments> faults() {
        return Stream.of(FencingDescriptorSink.When.BEFORE_ITS_COMMIT, FencingDescriptorSink.When.AFTER_ITS_COMMIT)
                .flatMap(when ->
                        Arrays.stream(FencingDescriptorSink.Then.values()).map(then -> Arguments.of(when, then)));
    }
}
