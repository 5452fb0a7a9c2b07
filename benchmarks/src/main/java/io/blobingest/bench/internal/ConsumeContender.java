package io.blobingest.bench.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The ceiling: plain {@code KafkaConsumer}s, one per thread as many as the parallelism, reading the
 * topic {@code read_committed} from the beginning to the end it has when they start. Every value
 * byte goes through crc32c (as blob-ingest checksums every blob), so no byte is left unread. Each
 * commits its positions after every poll ({@link #groupId}), which is how the bench sees its
 * progress.
 */
final class ConsumeContender {

    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(200);

    private final String bootstrapServers;
    private final String topic;
    private final int parallelism;

    /** The consumer group its positions are committed under after every poll, for the bench to watch. */
    static String groupId(String topic) {
        return "bench-consume-" + topic;
    }

    ConsumeContender(String bootstrapServers, String topic, int parallelism) {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.parallelism = parallelism;
    }

    /** Records and value bytes read, and the time from the consumers' start to the last record. */
    Tally run() throws Exception {
        List<TopicPartition> partitions = partitions();
        AtomicInteger next = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(
                parallelism,
                runnable -> new Thread(runnable, ProfileSummary.CONSUMER_THREAD_PREFIX + next.incrementAndGet()));
        try {
            long started = System.nanoTime();
            List<Future<PartitionsRead>> results = new ArrayList<>();
            for (int thread = 0; thread < parallelism; thread++) {
                List<TopicPartition> assigned = new ArrayList<>();
                for (int p = thread; p < partitions.size(); p += parallelism) {
                    assigned.add(partitions.get(p));
                }
                results.add(threads.submit(() -> consume(assigned)));
            }
            long records = 0;
            long bytes = 0;
            long checksum = 0;
            for (Future<PartitionsRead> result : results) {
                records += result.get().records();
                bytes += result.get().bytes();
                checksum ^= result.get().checksum();
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            // Printed so that the checksumming has an observable result and cannot be optimised away.
            System.out.printf(
                    "consume: %d records, %d value bytes, crc32c of every thread's values xor-ed: %d%n",
                    records, bytes, checksum);
            return new Tally(records, bytes, elapsed);
        } finally {
            threads.shutdownNow();
        }
    }

    private List<TopicPartition> partitions() {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            return consumer.partitionsFor(topic, CLIENT_TIMEOUT).stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .sorted((a, b) -> Integer.compare(a.partition(), b.partition()))
                    .toList();
        }
    }

    private PartitionsRead consume(List<TopicPartition> assigned) {
        if (assigned.isEmpty()) {
            return new PartitionsRead(0, 0, 0);
        }
        CRC32C crc = new CRC32C();
        long records = 0;
        long bytes = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            Map<TopicPartition, Long> ends = consumer.endOffsets(assigned, CLIENT_TIMEOUT);
            while (!reached(consumer, assigned, ends)) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    records++;
                    if (record.value() != null) {
                        crc.update(record.value());
                        bytes += record.value().length;
                    }
                }
                // The steady window is read from committed offsets, as the Flink jobs' are.
                consumer.commitAsync();
            }
        }
        return new PartitionsRead(records, bytes, crc.getValue());
    }

    private static boolean reached(
            KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> assigned, Map<TopicPartition, Long> ends) {
        for (TopicPartition partition : assigned) {
            if (consumer.position(partition, CLIENT_TIMEOUT) < ends.get(partition)) {
                return false;
            }
        }
        return true;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId(topic));
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** What one thread read; {@code checksum} is the crc32c of all its values. */
    private record PartitionsRead(long records, long bytes, long checksum) {}
}
