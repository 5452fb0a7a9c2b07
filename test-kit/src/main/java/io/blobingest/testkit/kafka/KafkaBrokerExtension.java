package io.blobingest.testkit.kafka;

import io.blobingest.broker.EmbeddedKafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Kafka broker in the test JVM: one combined KRaft node, started once per test class.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();
 * }</pre>
 *
 * <p>The broker is an {@link EmbeddedKafkaBroker}, or with {@link #inChildProcess()} a {@link
 * KafkaBrokerProcess} that {@link #killBroker()} kills with SIGKILL. Modules using this from the
 * test-jar also need {@code org.apache.kafka:kafka-test-common-runtime} as a test dependency.
 */
public final class KafkaBrokerExtension implements BeforeAllCallback, AfterAllCallback {

    /** Kafka's default {@code transaction.max.timeout.ms}, which this broker keeps. */
    public static final Duration BROKER_TRANSACTION_MAX_TIMEOUT = Duration.ofMinutes(15);

    /** Largest record the broker and {@link #send} accept. */
    public static final int MAX_MESSAGE_BYTES = EmbeddedKafkaBroker.MAX_MESSAGE_BYTES;

    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(30);

    private final boolean childProcess;
    private final Map<String, String> brokerSettings;
    private EmbeddedKafkaBroker broker;
    private KafkaBrokerProcess brokerProcess;
    private Path brokerDirectory;

    /** The broker in this JVM. */
    public KafkaBrokerExtension() {
        this(false, Map.of());
    }

    private KafkaBrokerExtension(boolean childProcess, Map<String, String> brokerSettings) {
        this.childProcess = childProcess;
        this.brokerSettings = brokerSettings;
    }

    /** The broker in a child JVM, which {@link #killBroker()} kills and {@link #startBroker()} starts again. */
    public static KafkaBrokerExtension inChildProcess() {
        return new KafkaBrokerExtension(true, Map.of());
    }

    /** The broker in this JVM with {@code settings} over {@link EmbeddedKafkaBroker#BROKER_SETTINGS}. */
    public static KafkaBrokerExtension withBrokerSettings(Map<String, String> settings) {
        return new KafkaBrokerExtension(false, Map.copyOf(settings));
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (childProcess) {
            brokerDirectory = Files.createTempDirectory("kafka-broker-process");
            brokerProcess = KafkaBrokerProcess.start(brokerDirectory);
        } else {
            broker = EmbeddedKafkaBroker.start(brokerSettings);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (broker != null) {
            broker.close();
            broker = null;
        }
        if (brokerProcess != null) {
            brokerProcess.close();
            brokerProcess = null;
            deleteRecursively(brokerDirectory);
        }
    }

    public String bootstrapServers() {
        return brokerProcess != null ? brokerProcess.bootstrapServers() : broker().bootstrapServers();
    }

    /** Stops the broker and starts it again on the same port and logs ({@link EmbeddedKafkaBroker#restartBroker}). */
    public void restartBroker() throws Exception {
        broker().restartBroker();
    }

    /**
     * SIGKILL of the child JVM's broker ({@link #inChildProcess()}): clients' connections break and
     * new ones are refused until {@link #startBroker()}.
     */
    public void killBroker() throws InterruptedException {
        brokerProcess().kill();
    }

    /** Starts the killed broker on the same port and data directory; returns once it accepts clients. */
    public void startBroker() throws IOException, InterruptedException {
        brokerProcess().start();
    }

    /** Creates a topic with replication factor 1 and waits until the broker serves it (a leader for each partition). */
    public void createTopic(String name, int partitions) throws ExecutionException, InterruptedException {
        EmbeddedKafkaBroker.createTopic(bootstrapServers(), name, partitions);
    }

    /** The names of the topics on the broker now, sorted. */
    public List<String> topics() throws ExecutionException, InterruptedException, TimeoutException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            return admin.listTopics().names().get(CLIENT_TIMEOUT.toSeconds(), TimeUnit.SECONDS).stream()
                    .sorted()
                    .toList();
        }
    }

    /**
     * Sends records without a transaction and waits until each is acknowledged. One request at a
     * time: with several in flight, a first request refused as {@code NOT_LEADER_OR_FOLLOWER} (a
     * partition its leader does not serve yet, as after {@link #restartBroker()}) is never accepted
     * once a later one was (KAFKA-15591), and its records expire.
     */
    public void send(List<ProducerRecord<byte[], byte[]>> records) throws ExecutionException, InterruptedException {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(MAX_MESSAGE_BYTES));
        config.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(4L * MAX_MESSAGE_BYTES));
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<Future<?>> acks = new ArrayList<>();
            for (ProducerRecord<byte[], byte[]> record : records) {
                acks.add(producer.send(record));
            }
            for (Future<?> ack : acks) {
                try {
                    ack.get();
                } catch (ExecutionException e) {
                    e.addSuppressed(new IllegalStateException(
                            "the broker's view of the topics sent to: " + describePartitions(records)));
                    throw e;
                }
            }
        }
    }

    /** Leaders and replicas of the topics of {@code records}, or why they could not be described. */
    private String describePartitions(List<ProducerRecord<byte[], byte[]>> records) {
        Set<String> topics = records.stream().map(ProducerRecord::topic).collect(Collectors.toSet());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            return admin.describeTopics(topics)
                    .allTopicNames()
                    .get(CLIENT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                    .toString();
        } catch (Exception e) {
            return "not described: " + e;
        }
    }

    /**
     * Every committed record of {@code topic} up to its last stable offset right now, as a
     * {@code read_committed} consumer sees it. Records of open transactions and everything after
     * them are not returned.
     */
    public List<ConsumerRecord<byte[], byte[]>> drainCommitted(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(IsolationLevel.READ_COMMITTED)) {
            List<TopicPartition> partitions = assignAll(consumer, topic);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, CLIENT_TIMEOUT);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + CLIENT_TIMEOUT.toNanos();
            while (!reached(consumer, ends)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " up to its last stable offsets " + ends
                            + " within " + CLIENT_TIMEOUT);
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    /**
     * Polls {@code topic} from the beginning until at least {@code count} records are visible with
     * the given isolation level: {@code READ_UNCOMMITTED} also sees records of open transactions.
     *
     * @throws AssertionError if they are not visible within {@code timeout}
     */
    public List<ConsumerRecord<byte[], byte[]>> awaitRecords(
            String topic, IsolationLevel isolationLevel, int count, Duration timeout) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(isolationLevel)) {
            assignAll(consumer, topic);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (records.size() < count) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("expected " + count + " records in " + topic + " (" + isolationLevel
                            + ") within " + timeout + ", found " + records.size());
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    private KafkaConsumer<byte[], byte[]> consumer(IsolationLevel isolationLevel) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel.toString());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static List<TopicPartition> assignAll(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        List<TopicPartition> partitions = consumer.partitionsFor(topic, CLIENT_TIMEOUT).stream()
                .map(info -> new TopicPartition(topic, info.partition()))
                .collect(Collectors.toList());
        if (partitions.isEmpty()) {
            throw new AssertionError("topic " + topic + " does not exist");
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return partitions;
    }

    private static boolean reached(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
        Collection<TopicPartition> partitions = ends.keySet();
        for (TopicPartition partition : partitions) {
            if (consumer.position(partition, CLIENT_TIMEOUT) < ends.get(partition)) {
                return false;
            }
        }
        return true;
    }

    private KafkaBrokerProcess brokerProcess() {
        if (brokerProcess == null) {
            throw new IllegalStateException("only a broker in a child process can be killed: use inChildProcess()");
        }
        return brokerProcess;
    }

    private static void deleteRecursively(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private EmbeddedKafkaBroker broker() {
        if (broker == null) {
            throw new IllegalStateException("the broker runs only inside a test class that registers this extension"
                    + " with @RegisterExtension on a static field");
        }
        return broker;
    }
}
