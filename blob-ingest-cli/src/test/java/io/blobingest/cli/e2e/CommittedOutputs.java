package io.blobingest.cli.e2e;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Which inputs already have a committed output, a descriptor or a dead letter: a {@code
 * read_committed} consumer of both topics that keeps its position, so that waiting for progress
 * does not read the topics again from the start each time.
 */
final class CommittedOutputs implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(500);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final BitSet seen = new BitSet();

    CommittedOutputs(String bootstrapServers, String... topics) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            consumer.partitionsFor(topic, Duration.ofMinutes(1))
                    .forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** How many distinct inputs have a committed output now. */
    int count() {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
            Header seq = record.headers().lastHeader("seq");
            if (seq == null) {
                throw new AssertionError("an output without a seq header: " + record);
            }
            seen.set(Integer.parseInt(new String(seq.value(), StandardCharsets.UTF_8)));
        }
        return seen.cardinality();
    }

    /** Whether inputs {@code 0..inputs-1} all have a committed output now. */
    boolean hasAll(int inputs) {
        return count() >= inputs && seen.nextClearBit(0) >= inputs;
    }

    /** Waits until inputs {@code 0..inputs-1} all have a committed output. */
    void awaitAll(int inputs, Duration timeout) throws InterruptedException {
        Await.until(
                () -> hasAll(inputs),
                "committed outputs of inputs 0.." + (inputs - 1) + " (" + seen.cardinality() + " so far)",
                timeout);
    }

    /** Waits until more than {@code inputs} inputs have a committed output. */
    void awaitMoreThan(int inputs, Duration timeout) throws InterruptedException {
        Await.until(() -> count() > inputs, "more than " + inputs + " committed outputs", timeout);
    }

    @Override
    public void close() {
        consumer.close();
    }
}
