package io.blobingest.cli.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Every partition of one topic read from the beginning as a {@code read_committed} consumer sees
 * it: records of open or aborted transactions never show. No consumer group, nothing committed.
 */
public final class CommittedTopic implements AutoCloseable {

    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(30);

    private final String topic;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions;

    public CommittedTopic(String bootstrapServers, String topic) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        this.topic = topic;
        this.consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        try {
            this.partitions = consumer.partitionsFor(topic, CLIENT_TIMEOUT).stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .toList();
            if (partitions.isEmpty()) {
                throw new IllegalArgumentException("topic " + topic + " does not exist");
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    public String topic() {
        return topic;
    }

    /** The committed records that arrived since the last call, waiting at most {@code timeout} for some. */
    public List<ConsumerRecord<byte[], byte[]>> poll(Duration timeout) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        consumer.poll(timeout).forEach(records::add);
        return records;
    }

    /**
     * The committed records from the last call up to the topic's last stable offsets as they are
     * now.
     *
     * @throws IllegalStateException if they cannot be read within {@code timeout}
     */
    public List<ConsumerRecord<byte[], byte[]>> readToEnd(Duration timeout) {
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, CLIENT_TIMEOUT);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!reached(ends)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "could not read " + topic + " up to its last stable offsets " + ends + " within " + timeout);
            }
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }
        return records;
    }

    private boolean reached(Map<TopicPartition, Long> ends) {
        for (TopicPartition partition : partitions) {
            if (consumer.position(partition, CLIENT_TIMEOUT) < ends.get(partition)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
