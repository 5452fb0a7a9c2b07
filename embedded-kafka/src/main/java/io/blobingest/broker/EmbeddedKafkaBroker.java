package io.blobingest.broker;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import kafka.server.BrokerServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka broker inside this JVM: one combined KRaft node (broker and controller), its logs
 * in a temporary directory that {@link #close()} deletes. For the demo and for tests; not for
 * production data.
 *
 * <p>Transactions work with one node: the transaction state log has replication factor 1 and min
 * ISR 1. Topics are never created automatically. Needs {@code
 * org.apache.kafka:kafka-test-common-runtime} on the class path (an optional dependency of this
 * module).
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    /** Largest record the broker accepts: room for 40 MiB video segments and their headers. */
    public static final int MAX_MESSAGE_BYTES = 48 * 1024 * 1024;

    /**
     * The node's settings beside its roles, listeners and storage: transactions and offsets with one
     * node, no rebalance delay, no automatic topics, records up to {@link #MAX_MESSAGE_BYTES}.
     */
    public static final Map<String, String> BROKER_SETTINGS = Map.of(
            "offsets.topic.replication.factor", "1",
            "offsets.topic.num.partitions", "1",
            "transaction.state.log.replication.factor", "1",
            "transaction.state.log.min.isr", "1",
            "transaction.state.log.num.partitions", "1",
            "group.initial.rebalance.delay.ms", "0",
            "auto.create.topics.enable", "false",
            "message.max.bytes", Integer.toString(MAX_MESSAGE_BYTES),
            "replica.fetch.max.bytes", Integer.toString(MAX_MESSAGE_BYTES));

    /** How long {@link #createTopic} waits for the broker to serve a created topic. */
    public static final Duration TOPIC_READY_TIMEOUT = Duration.ofMinutes(1);

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    private final KafkaClusterTestKit cluster;

    private EmbeddedKafkaBroker(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    /** Formats and starts the broker; returns once it accepts clients (about 2 s). */
    public static EmbeddedKafkaBroker start() throws Exception {
        return start(Map.of());
    }

    /** As {@link #start()}, with {@code settings} over {@link #BROKER_SETTINGS}. */
    public static EmbeddedKafkaBroker start(Map<String, String> settings) throws Exception {
        TestKitNodes nodes = new TestKitNodes.Builder()
                .setCombined(true)
                .setNumBrokerNodes(1)
                .setNumControllerNodes(1)
                .build();
        KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nodes);
        BROKER_SETTINGS.forEach(builder::setConfigProp);
        settings.forEach(builder::setConfigProp);
        KafkaClusterTestKit cluster = builder.build();
        try {
            formatQuietly(cluster);
            cluster.startup();
            cluster.waitForReadyBrokers();
        } catch (Exception e) {
            try {
                cluster.close();
            } catch (Exception closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return new EmbeddedKafkaBroker(cluster);
    }

    /**
     * Kafka's storage formatter reports to {@code System.out}, which belongs to the program that
     * embeds the broker (the demo prints its results there); its report goes to the log instead.
     */
    private static void formatQuietly(KafkaClusterTestKit cluster) throws Exception {
        PrintStream stdout = System.out;
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        System.setOut(new PrintStream(report, true, StandardCharsets.UTF_8));
        try {
            cluster.format();
        } finally {
            System.setOut(stdout);
            LOG.debug(
                    "Kafka storage formatter: {}",
                    report.toString(StandardCharsets.UTF_8).strip());
        }
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** Creates a topic with replication factor 1 and waits until the broker serves it (a leader for each partition). */
    public void createTopic(String name, int partitions) throws ExecutionException, InterruptedException {
        createTopic(bootstrapServers(), name, partitions);
    }

    /**
     * Creates a topic with replication factor 1 on the broker at {@code bootstrapServers}; waits until
     * the broker serves it: every partition has a leader in the broker's metadata, and that leader
     * answers a request for the partition's end offset.
     *
     * <p>Both waits are needed. {@code createTopics} returns once the controller has the topic, and
     * the broker learns of it later (the wait Kafka's own tests make with {@code
     * waitUntilLeaderIsKnown}). And the broker publishes the partition's leader in its metadata
     * before its replica manager has created the partition's log, which takes a while when the disk
     * is busy: a produce request in between fails with {@code NOT_LEADER_OR_FOLLOWER}. An idempotent
     * producer with several requests in flight then never recovers (KAFKA-15591): its later request
     * is appended, and every retry of the first is out of order until its delivery timeout expires
     * it.
     *
     * @throws IllegalStateException if the broker does not serve the topic within {@link #TOPIC_READY_TIMEOUT}
     */
    public static void createTopic(String bootstrapServers, String name, int partitions)
            throws ExecutionException, InterruptedException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
                    .all()
                    .get();
            awaitLeaders(admin, name, partitions);
            awaitServingLeaders(admin, name, partitions);
        }
    }

    /** Admin's {@code listOffsets} retries {@code NOT_LEADER_OR_FOLLOWER} until the leader has the partition. */
    private static void awaitServingLeaders(Admin admin, String topic, int partitions)
            throws ExecutionException, InterruptedException {
        Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
        for (int partition = 0; partition < partitions; partition++) {
            ends.put(new TopicPartition(topic, partition), OffsetSpec.latest());
        }
        try {
            admin.listOffsets(ends, new ListOffsetsOptions().timeoutMs(Math.toIntExact(TOPIC_READY_TIMEOUT.toMillis())))
                    .all()
                    .get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "topic '" + topic + "' has leaders, but they do not serve its " + partitions + " partitions within "
                            + TOPIC_READY_TIMEOUT,
                    e.getCause());
        }
    }

    private static void awaitLeaders(Admin admin, String topic, int partitions)
            throws ExecutionException, InterruptedException {
        long deadline = System.nanoTime() + TOPIC_READY_TIMEOUT.toNanos();
        String lastSeen = "not described yet";
        while (System.nanoTime() < deadline) {
            try {
                TopicDescription description = admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get()
                        .get(topic);
                lastSeen = description.partitions().toString();
                if (description.partitions().size() == partitions
                        && description.partitions().stream()
                                .allMatch(partition -> partition.leader() != null
                                        && !partition.leader().isEmpty())) {
                    return;
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
                lastSeen = "unknown to the broker";
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("topic '" + topic + "' created, but its " + partitions
                + " partitions have no leader on the broker within " + TOPIC_READY_TIMEOUT + ": " + lastSeen);
    }

    /**
     * Stops the broker and starts it again on the same port and log directories, as an operator's
     * restart of a broker would: clients lose their connections until it is back, then reconnect to
     * the same address; topics, records, committed offsets and transactions survive (they are
     * reloaded from the logs). The node's controller keeps running. Returns once the broker accepts
     * clients again.
     */
    public void restartBroker() throws Exception {
        Map<Integer, BrokerServer> brokers = cluster.brokers();
        for (Map.Entry<Integer, BrokerServer> entry : brokers.entrySet()) {
            BrokerServer stopped = entry.getValue();
            stopped.shutdown();
            stopped.awaitShutdown();
            // The shared server (controller, Raft log, socket factory) outlives the broker; the test
            // kit's socket factory binds the new listener to the port the stopped one had.
            BrokerServer restarted = new BrokerServer(stopped.sharedServer());
            entry.setValue(restarted);
            restarted.startup();
        }
        cluster.waitForReadyBrokers();
    }

    /** Stops the broker and deletes its logs. */
    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
