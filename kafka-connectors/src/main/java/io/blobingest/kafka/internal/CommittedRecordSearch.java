package io.blobingest.kafka.internal;

import io.blobingest.kafka.KafkaDescriptorDeliveryCheck;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Looks, on a thread of its own, for one record in a topic as a {@code read_committed} consumer
 * sees it: whether a transaction that sent it committed, when the transaction coordinator no longer
 * says. It reads every partition from the first record stamped at or after {@code sentNotBefore}
 * minus {@link #CLOCK_MARGIN}, up to the end the partition had when the search started, and stops
 * at the first record whose key, value and headers equal the wanted one. A {@code read_committed}
 * consumer gets no further than the partition's last stable offset, so the search ends only once
 * every transaction open in that range has ended (the descriptor sink's own open transactions
 * commit with the next checkpoint): until then {@link #result()} is empty.
 *
 * <p>Assumes that the wanted record was sent, if at all, at or after {@code sentNotBefore} on the
 * sender's clock, that record timestamps are the producer's ({@code CreateTime}) or the broker's
 * within {@link #CLOCK_MARGIN} of it, and that the topic's retention has not deleted it yet.
 */
@Internal
public final class CommittedRecordSearch implements AutoCloseable {

    /** How far before {@code sentNotBefore} the search starts, for clocks that differ or step back. */
    static final Duration CLOCK_MARGIN = Duration.ofMinutes(5);

    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration ADMIN_TIMEOUT = KafkaDescriptorDeliveryCheck.LOOKUP_TIMEOUT;

    private final String description;
    private final String topic;
    private final CompletableFuture<Boolean> found = new CompletableFuture<>();
    private final Thread thread;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private volatile boolean closed;

    private CommittedRecordSearch(
            String description,
            Properties clientProperties,
            Admin admin,
            ProducerRecord<byte[], byte[]> wanted,
            long sentNotBeforeMillis) {
        this.description = description;
        this.topic = wanted.topic();
        this.thread = new Thread(
                () -> {
                    try {
                        found.complete(search(clientProperties, admin, wanted, sentNotBeforeMillis));
                    } catch (Throwable t) {
                        found.completeExceptionally(t);
                    }
                },
                "committed-record-search " + description);
        thread.setDaemon(true);
    }

    /**
     * Starts looking for {@code wanted} in its topic.
     *
     * @param description what is looked for, for the thread's name and for errors
     * @param clientProperties a client's properties for the topic's cluster (bootstrap servers, security)
     * @param admin an admin client of that cluster, open while the search runs
     * @param sentNotBeforeMillis the sender's wall-clock time before which the record was not sent;
     *     0 when it is not known, which searches from each partition's earliest record
     */
    static CommittedRecordSearch start(
            String description,
            Properties clientProperties,
            Admin admin,
            ProducerRecord<byte[], byte[]> wanted,
            long sentNotBeforeMillis) {
        CommittedRecordSearch search =
                new CommittedRecordSearch(description, clientProperties, admin, wanted, sentNotBeforeMillis);
        search.thread.start();
        return search;
    }

    /**
     * Whether the record is committed in the topic; empty while the search runs.
     *
     * @throws IOException when the search failed
     */
    Optional<Boolean> result() throws IOException {
        if (!found.isDone()) {
            return Optional.empty();
        }
        try {
            return Optional.of(found.get());
        } catch (ExecutionException e) {
            throw new IOException("the search for " + description + " failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while learning the result of the search for " + description, e);
        }
    }

    private boolean search(
            Properties clientProperties, Admin admin, ProducerRecord<byte[], byte[]> wanted, long sentNotBeforeMillis)
            throws Exception {
        String topic = wanted.topic();
        TopicDescription topicDescription = admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .get(topic);
        Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
        Map<TopicPartition, OffsetSpec> starts = new HashMap<>();
        OffsetSpec start = sentNotBeforeMillis <= 0
                ? OffsetSpec.earliest()
                : OffsetSpec.forTimestamp(Math.max(0, sentNotBeforeMillis - CLOCK_MARGIN.toMillis()));
        topicDescription.partitions().forEach(p -> {
            TopicPartition partition = new TopicPartition(topic, p.partition());
            ends.put(partition, OffsetSpec.latest());
            starts.put(partition, start);
        });
        // Read uncommitted: the wanted record may lie beyond the last stable offset; the consumer
        // below then waits for the stable offset to pass it.
        ListOffsetsOptions uncommitted = new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED);
        Map<TopicPartition, ListOffsetsResultInfo> endOffsets =
                admin.listOffsets(ends, uncommitted).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        Map<TopicPartition, ListOffsetsResultInfo> startOffsets =
                admin.listOffsets(starts, uncommitted).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        Map<TopicPartition, Long> remaining = new HashMap<>();
        Map<TopicPartition, Long> from = new HashMap<>();
        endOffsets.forEach((partition, end) -> {
            long first = startOffsets.get(partition).offset();
            // -1: no record stamped at or after the start time
            if (first >= 0 && first < end.offset()) {
                remaining.put(partition, end.offset());
                from.put(partition, first);
            }
        });
        if (remaining.isEmpty()) {
            return false;
        }
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
        try (KafkaConsumer<byte[], byte[]> reader =
                new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer = reader;
            if (closed) {
                return false;
            }
            reader.assign(remaining.keySet());
            from.forEach(reader::seek);
            while (!remaining.isEmpty()) {
                for (ConsumerRecord<byte[], byte[]> record : reader.poll(POLL)) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    Long end = remaining.get(partition);
                    if (end != null && record.offset() < end && matches(wanted, record)) {
                        return true;
                    }
                }
                for (Iterator<Map.Entry<TopicPartition, Long>> it =
                                remaining.entrySet().iterator();
                        it.hasNext(); ) {
                    Map.Entry<TopicPartition, Long> partition = it.next();
                    if (reader.position(partition.getKey(), ADMIN_TIMEOUT) >= partition.getValue()) {
                        reader.pause(List.of(partition.getKey()));
                        it.remove();
                    }
                }
            }
            return false;
        } catch (WakeupException e) {
            if (closed) {
                return false;
            }
            throw e;
        }
    }

    private static boolean matches(ProducerRecord<byte[], byte[]> wanted, ConsumerRecord<byte[], byte[]> record) {
        if (!Arrays.equals(wanted.key(), record.key()) || !Arrays.equals(wanted.value(), record.value())) {
            return false;
        }
        Iterator<Header> expected = wanted.headers().iterator();
        Iterator<Header> actual = record.headers().iterator();
        while (expected.hasNext() && actual.hasNext()) {
            Header e = expected.next();
            Header a = actual.next();
            if (!e.key().equals(a.key()) || !Arrays.equals(e.value(), a.value())) {
                return false;
            }
        }
        return !expected.hasNext() && !actual.hasNext();
    }

    /** Stops the search and waits for its thread, at most {@link #ADMIN_TIMEOUT}. */
    /** The topic looked in. */
    public String topic() {
        return topic;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        KafkaConsumer<byte[], byte[]> reader = consumer;
        if (reader != null) {
            reader.wakeup();
        }
        try {
            thread.join(ADMIN_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping the search for " + description, e);
        }
        if (thread.isAlive()) {
            thread.interrupt();
        }
    }
}
