package io.blobingest.kafka.internal;

import io.blobingest.kafka.KafkaDescriptorDeliveryCheck;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads input records again by their coordinates, as the job's source read them ({@code
 * read_committed}, no consumer group): the inputs of dead letters whose transaction was aborted.
 * A record no longer in its topic (retention, compaction) is an error naming it, never skipped.
 */
@Internal
public final class InputRecordReader implements AutoCloseable {

    /** How long reading one record may take on the task thread. */
    static final Duration READ_TIMEOUT = KafkaDescriptorDeliveryCheck.LOOKUP_TIMEOUT;

    private static final Duration POLL = Duration.ofMillis(200);

    private final KafkaConsumer<byte[], byte[]> consumer;

    /** @param clientProperties a client's properties for the input topic's cluster (bootstrap servers, security) */
    public InputRecordReader(Properties clientProperties) {
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
        consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * The records at {@code coordinates} (topic, partition, offset), in that order.
     *
     * @throws IOException naming the first record that is gone from its topic, or that cannot be
     *     read within {@link #READ_TIMEOUT}
     */
    public List<ConsumerRecord<byte[], byte[]>> read(List<DeadLetterRef> coordinates) throws IOException {
        Map<TopicPartition, TreeSet<Long>> wanted = new LinkedHashMap<>();
        for (DeadLetterRef ref : coordinates) {
            wanted.computeIfAbsent(new TopicPartition(ref.topic(), ref.partition()), p -> new TreeSet<>())
                    .add(ref.offset());
        }
        Map<TopicPartition, Map<Long, ConsumerRecord<byte[], byte[]>>> found = new HashMap<>();
        for (Map.Entry<TopicPartition, TreeSet<Long>> partition : wanted.entrySet()) {
            found.put(partition.getKey(), read(partition.getKey(), partition.getValue()));
        }
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(coordinates.size());
        for (DeadLetterRef ref : coordinates) {
            records.add(
                    found.get(new TopicPartition(ref.topic(), ref.partition())).get(ref.offset()));
        }
        return records;
    }

    private Map<Long, ConsumerRecord<byte[], byte[]>> read(TopicPartition partition, TreeSet<Long> offsets)
            throws IOException {
        consumer.assign(List.of(partition));
        long earliest =
                consumer.beginningOffsets(List.of(partition), READ_TIMEOUT).get(partition);
        Map<Long, ConsumerRecord<byte[], byte[]>> found = new HashMap<>();
        for (long offset : offsets) {
            if (found.containsKey(offset)) {
                continue;
            }
            if (offset < earliest) {
                throw gone(partition, offset, "its earliest offset is now " + earliest);
            }
            consumer.seek(partition, offset);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            long reached = -1;
            while (reached < offset) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("cannot read input record " + partition.topic() + "/" + partition.partition()
                            + "/" + offset + " within " + READ_TIMEOUT);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL).records(partition)) {
                    if (offsets.contains(record.offset())) {
                        found.put(record.offset(), record);
                    }
                    reached = Math.max(reached, record.offset());
                }
            }
            if (!found.containsKey(offset)) {
                throw gone(partition, offset, "the first record at or after it is at offset " + reached);
            }
        }
        return found;
    }

    private static IOException gone(TopicPartition partition, long offset, String why) {
        return new IOException("input record " + partition.topic() + "/" + partition.partition() + "/" + offset
                + " is no longer in its topic (" + why + ": retention or compaction removed it)");
    }

    @Override
    public void close() {
        consumer.close();
    }
}
