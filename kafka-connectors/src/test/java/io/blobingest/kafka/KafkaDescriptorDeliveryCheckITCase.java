package io.blobingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.DescriptorDeliveryCheck.Epoch;
import io.blobingest.sink.DescriptorDeliveryCheck.Outcome;
import io.blobingest.sink.DescriptorDeliveryCheck.Session;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka delivery check on a real broker, with the transactions of a descriptor sink made by
 * hand: in particular a transaction fenced after it ended, whose coordinator state ({@code Empty})
 * no longer tells whether it committed, so that the check must find out from the topic.
 */
class KafkaDescriptorDeliveryCheckITCase {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    /** How long a test waits for an answer before it fails (a hung check, not a slow one). */
    private static final Duration ANSWER_DEADLINE = Duration.ofMinutes(2);

    private String topic;
    private KafkaDescriptorDeliveryCheck check;

    /** The lineage's directory beside its delivery markers. */
    @TempDir
    Path directory;

    @BeforeEach
    void createTopic() throws Exception {
        String run = UUID.randomUUID().toString();
        topic = "descriptors-" + run;
        KAFKA.createTopic(topic, 2);
        check = new KafkaDescriptorDeliveryCheck(adminProperties(), "check-" + run, DescriptorTopics.of(topic));
    }

    @Test
    void theDescriptorTopicDeletedAndRecreatedIsRefusedBySessionsOfEveryLaterStart() throws Exception {
        try (Session session = check.open(lineageDirectory())) {
            session.checkDestination();
        }
        String old = topicId();
        delete(topic);
        try (Session session = check.open(lineageDirectory())) {
            assertThatThrownBy(session::checkDestination)
                    .isInstanceOf(DescriptorTopicRecreatedException.class)
                    .hasMessageStartingWith("descriptor topic '" + topic + "' was deleted since this job first"
                            + " delivered to it (topic id " + old + ", now none)");
        }
        KAFKA.createTopic(topic, 2);
        String recreated = awaitDescribable();

        try (Session session = check.open(lineageDirectory())) {
            assertThatThrownBy(session::checkDestination)
                    .isInstanceOf(DescriptorTopicRecreatedException.class)
                    .hasMessageStartingWith("descriptor topic '" + topic + "' was deleted and recreated since this"
                            + " job first delivered to it (topic id " + old + ", now " + recreated + "): ")
                    .hasMessageNotContaining("\n");
        }
        // Another lineage starts with the topic as it is now.
        try (Session session = check.open(
                new org.apache.flink.core.fs.Path(directory.resolve("other").toUri()))) {
            session.checkDestination();
        }
    }

    /**
     * {@code {topic}.<suffix>}: the first row of an input topic creates its descriptor topic, a
     * fenced epoch is looked for there, and a later session checks it without being told.
     */
    @Test
    void withATopicPerInputTopicTheFirstRowCreatesItsTopicWhereTheEpochIsLookedForAndLaterChecked() throws Exception {
        String run = UUID.randomUUID().toString();
        DescriptorTopics topics = DescriptorTopics.of("{topic}.descriptors-" + run);
        String perTopic = "blobs.descriptors-" + run;
        KafkaDescriptorDeliveryCheck perTopicCheck =
                new KafkaDescriptorDeliveryCheck(adminProperties(), "check-" + run, topics);
        long sentAt = System.currentTimeMillis();
        try (Session session = perTopicCheck.open(lineageDirectory())) {
            session.checkDestinationOf(row(1));
            assertThat(KAFKA.topics())
                    .as("topics after the first row of 'blobs'")
                    .contains(perTopic);

            send(perTopicCheck, perTopic, 1, List.of(row(1), row(2)), true);
            fence(perTopicCheck, 1);
            assertThat(answer(session, epoch(1, sentAt, row(2)))).isEqualTo(Outcome.COMMITTED);
        }
        delete(perTopic);
        try (Session session = perTopicCheck.open(lineageDirectory())) {
            assertThatThrownBy(session::checkDestination)
                    .isInstanceOf(DescriptorTopicRecreatedException.class)
                    .hasMessageStartingWith("descriptor topic '" + perTopic + "' was deleted");
        }
    }

    @Test
    void aTransactionFencedAfterItCommittedIsCommitted() throws Exception {
        long sentAt = System.currentTimeMillis();
        send(1, List.of(row(1), row(2)), true);
        fence(1);
        assertThat(state(1)).as("the state that hides the outcome").isEqualTo(TransactionState.EMPTY);

        try (Session session = check.open(lineageDirectory())) {
            assertThat(answer(session, epoch(1, sentAt, row(2)))).isEqualTo(Outcome.COMMITTED);
        }
    }

    @Test
    void aTransactionFencedAfterItAbortedIsAbortedAlthoughOtherRowsAreCommitted() throws Exception {
        long sentAt = System.currentTimeMillis();
        send(1, List.of(row(1)), true);
        send(2, List.of(row(2)), false);
        fence(2);
        assertThat(state(2)).isEqualTo(TransactionState.EMPTY);

        try (Session session = check.open(lineageDirectory())) {
            assertThat(answer(session, epoch(2, sentAt, row(2)))).isEqualTo(Outcome.ABORTED);
        }
    }

    @Test
    void theAnswerWaitsForTransactionsOpenBeforeTheRowToEnd() throws Exception {
        long sentAt = System.currentTimeMillis();
        try (KafkaProducer<byte[], byte[]> open = transactionalProducer(check.transactionalId(1, 9))) {
            open.initTransactions();
            open.beginTransaction();
            for (int partition = 0; partition < 2; partition++) {
                open.send(DescriptorRecords.toProducerRecord(topic, row(100 + partition), null))
                        .get();
            }
            send(1, List.of(row(1)), true);
            fence(1);

            try (Session session = check.open(lineageDirectory())) {
                Epoch epoch = epoch(1, sentAt, row(1));
                // On both partitions, a read_committed reader cannot see past the open transaction.
                for (int i = 0; i < 10; i++) {
                    assertThat(session.outcome(epoch)).isEqualTo(Outcome.OPEN);
                    Thread.sleep(200);
                }
                open.commitTransaction();
                assertThat(answer(session, epoch)).isEqualTo(Outcome.COMMITTED);
            }
        }
    }

    @Test
    void anEpochWithoutRowsFencedAfterwardsIsAbortedAtOnce() throws Exception {
        send(1, List.of(row(1)), true);
        fence(1);

        try (Session session = check.open(lineageDirectory())) {
            assertThat(session.outcome(epoch(1, System.currentTimeMillis(), null)))
                    .isEqualTo(Outcome.ABORTED);
        }
    }

    @Test
    void theCoordinatorsStateAnswersWhenItTells() throws Exception {
        send(1, List.of(row(1)), true);
        send(2, List.of(row(2)), false);
        try (KafkaProducer<byte[], byte[]> open = transactionalProducer(check.transactionalId(0, 3));
                Session session = check.open(lineageDirectory())) {
            open.initTransactions();
            open.beginTransaction();
            open.send(DescriptorRecords.toProducerRecord(topic, row(3), null)).get();

            long now = System.currentTimeMillis();
            assertThat(session.outcome(epoch(1, now, row(1)))).isEqualTo(Outcome.COMMITTED);
            assertThat(session.outcome(epoch(2, now, row(2)))).isEqualTo(Outcome.ABORTED);
            assertThat(session.outcome(new TestEpoch(0, 3, now, Optional.of(row(3)))))
                    .isEqualTo(Outcome.OPEN);
            open.abortTransaction();
        }
    }

    /** Asks until the answer is not {@code OPEN}. */
    private static Outcome answer(Session session, Epoch epoch) throws Exception {
        long deadline = System.nanoTime() + ANSWER_DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            Outcome outcome = session.outcome(epoch);
            if (outcome != Outcome.OPEN) {
                return outcome;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no answer about " + epoch + " within " + ANSWER_DEADLINE);
    }

    /** Sends {@code rows} in subtask 0's transaction of {@code epoch}, committed or aborted. */
    private void send(long epoch, List<DescriptorRow> rows, boolean commit) throws Exception {
        send(check, topic, epoch, rows, commit);
    }

    private static void send(
            KafkaDescriptorDeliveryCheck check, String topic, long epoch, List<DescriptorRow> rows, boolean commit)
            throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = transactionalProducer(check.transactionalId(0, epoch))) {
            producer.initTransactions();
            producer.beginTransaction();
            for (DescriptorRow row : rows) {
                producer.send(DescriptorRecords.toProducerRecord(topic, row, null))
                        .get();
            }
            if (commit) {
                producer.commitTransaction();
            } else {
                producer.abortTransaction();
            }
        }
    }

    /** Deletes {@code topic} and waits until the brokers no longer list it. */
    private static void delete(String topic) throws Exception {
        try (Admin admin = Admin.create(adminProperties())) {
            admin.deleteTopics(List.of(topic)).all().get(1, TimeUnit.MINUTES);
            long deadline = System.nanoTime() + ANSWER_DEADLINE.toNanos();
            while (admin.listTopics().names().get(1, TimeUnit.MINUTES).contains(topic)) {
                assertThat(System.nanoTime())
                        .as("%s gone within %s", topic, ANSWER_DEADLINE)
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    private void fence(long epoch) throws Exception {
        fence(check, epoch);
    }

    private static void fence(KafkaDescriptorDeliveryCheck check, long epoch) throws Exception {
        try (Admin admin = Admin.create(adminProperties())) {
            admin.fenceProducers(List.of(check.transactionalId(0, epoch))).all().get(1, TimeUnit.MINUTES);
        }
    }

    private TransactionState state(long epoch) throws Exception {
        String transactionalId = check.transactionalId(0, epoch);
        try (Admin admin = Admin.create(adminProperties())) {
            return admin.describeTransactions(List.of(transactionalId))
                    .description(transactionalId)
                    .get(1, TimeUnit.MINUTES)
                    .state();
        }
    }

    private static KafkaProducer<byte[], byte[]> transactionalProducer(String transactionalId) {
        Properties properties = adminProperties();
        properties.setProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static Properties adminProperties() {
        Properties properties = new Properties();
        properties.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        return properties;
    }

    private static Epoch epoch(long epoch, long firstRowSentAtMillis, DescriptorRow sample) {
        return new TestEpoch(0, epoch, firstRowSentAtMillis, Optional.ofNullable(sample));
    }

    /** A Packed row of input offset {@code i}; rows differ only in their source offset and key. */
    private static DescriptorRow row(long i) {
        return new DescriptorRow(
                ("key-" + i).getBytes(StandardCharsets.UTF_8),
                "blobs",
                (int) (i % 2),
                i,
                null,
                BlobDescriptor.packed(0x8000_0000_0000_0000L, 100, 1),
                "0123456789abcdef0123456789abcdef-0-1",
                null,
                42L,
                List.of());
    }

    private record TestEpoch(int subtask, long epoch, long firstRowSentAtMillis, Optional<DescriptorRow> sample)
            implements Epoch {

        @Override
        public Optional<DescriptorRow> sampleRow() {
            return sample;
        }
    }

    private org.apache.flink.core.fs.Path lineageDirectory() {
        return new org.apache.flink.core.fs.Path(directory.toUri());
    }

    /**
     * The recreated topic's id once Admin describes it: {@code createTopics} returns when the
     * controller has the topic, and the broker that answers a describe may learn of it a moment
     * later (seen under load: the check found "now none").
     */
    private String awaitDescribable() throws Exception {
        long deadline = System.nanoTime() + ANSWER_DEADLINE.toNanos();
        while (true) {
            try {
                return topicId();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
                assertThat(System.nanoTime())
                        .as("%s describable within %s", topic, ANSWER_DEADLINE)
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    private String topicId() throws Exception {
        try (Admin admin = Admin.create(adminProperties())) {
            return admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(1, TimeUnit.MINUTES)
                    .get(topic)
                    .topicId()
                    .toString();
        }
    }
}
