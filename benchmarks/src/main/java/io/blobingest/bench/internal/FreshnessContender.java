package io.blobingest.bench.internal;

import io.blobingest.bench.FreshnessFigures;
import io.blobingest.cli.demo.DemoProducer;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
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

/**
 * Freshness ({@link FreshnessFigures}): the {@code run} command line without {@code --bounded},
 * in this JVM's MiniCluster, fed by a producer at a steady rate, each record stamped with the
 * time it is sent; a {@code read_committed} consumer of the descriptor topic notes when each
 * descriptor arrives. Until the first descriptor arrives (the job starting) records trickle in;
 * then the rate starts, and records sent after a warm-up are measured; after the measured period
 * the producer stops and the consumer waits for every measured record's descriptor.
 */
final class FreshnessContender {

    private static final Duration POLL = Duration.ofMillis(20);
    private static final Duration START_DEADLINE = Duration.ofMinutes(3);
    /** Until the first descriptor arrives (the job started), a record this often: no backlog at the start. */
    private static final Duration TRICKLE = Duration.ofMillis(500);

    private static final Duration MIN_WARM_UP = Duration.ofSeconds(5);
    /** Beyond a few checkpoint intervals: a measured descriptor that late is lost, not slow. */
    private static final Duration DRAIN_DEADLINE = Duration.ofMinutes(2);

    private final List<String> runArguments;
    private final String bootstrapServers;
    private final String topic;
    private final String descriptorTopic;
    private final int partitions;
    private final SizedBlobWorkload workload;
    private final long bytesPerSecond;
    private final Duration measured;
    private final Duration interval;

    /** @param workload the records, sent in index order, as many as the rate and time ask for */
    FreshnessContender(
            List<String> runArguments,
            String bootstrapServers,
            String topic,
            String descriptorTopic,
            int partitions,
            SizedBlobWorkload workload,
            long bytesPerSecond,
            Duration measured,
            Duration interval) {
        this.runArguments = List.copyOf(runArguments);
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.descriptorTopic = descriptorTopic;
        this.partitions = partitions;
        this.workload = workload;
        this.bytesPerSecond = bytesPerSecond;
        this.measured = measured;
        this.interval = interval;
    }

    FreshnessFigures run() throws Exception {
        BackgroundRun job =
                BackgroundRun.start(runArguments, new PrintWriter(System.out, true), "while freshness was measured");
        AtomicLongArray sentAt = new AtomicLongArray(workload.count());
        Arrivals arrivals = new Arrivals(sentAt);
        Thread reader = new Thread(arrivals, "descriptor-reader");
        reader.setDaemon(true);
        reader.start();
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            long started = System.nanoTime();
            long rateFrom = Long.MAX_VALUE;
            long sentAtRate = 0;
            int index = 0;
            long measuredFrom = Long.MAX_VALUE;
            int firstMeasured = -1;
            while (measuredFrom == Long.MAX_VALUE || System.currentTimeMillis() < measuredFrom + measured.toMillis()) {
                checkRunning(job, arrivals);
                if (rateFrom == Long.MAX_VALUE && arrivals.any()) {
                    // The job runs and has no backlog: the rate starts, and after a warm-up records count.
                    rateFrom = System.nanoTime();
                    measuredFrom = System.currentTimeMillis() + warmUp().toMillis();
                } else if (rateFrom == Long.MAX_VALUE && System.nanoTime() - started > START_DEADLINE.toNanos()) {
                    throw new IllegalStateException("no descriptor within " + START_DEADLINE + " of the first record");
                }
                if (index >= workload.count()) {
                    throw new IllegalStateException("the workload's " + workload.count() + " records ran out before the"
                            + " measured period ended");
                }
                long dueAt = rateFrom == Long.MAX_VALUE
                        ? started + index * TRICKLE.toNanos()
                        : rateFrom + (long) (sentAtRate * 1e9 / bytesPerSecond);
                LockSupport.parkNanos(dueAt - System.nanoTime());
                ProducerRecord<byte[], byte[]> input = workload.record(topic, partitions, index++);
                long stamp = System.currentTimeMillis();
                sentAt.set(index - 1, stamp);
                producer.send(new ProducerRecord<>(topic, input.partition(), stamp, input.key(), input.value()));
                if (rateFrom != Long.MAX_VALUE) {
                    sentAtRate += input.value().length;
                }
                if (stamp >= measuredFrom && firstMeasured < 0) {
                    firstMeasured = index - 1;
                }
            }
            producer.flush();
            if (firstMeasured < 0) {
                throw new IllegalStateException(
                        "no record was sent in the measured " + measured + " at " + bytesPerSecond + " bytes/s");
            }
            int from = firstMeasured;
            int to = index;
            long measuredRecords = to - from;
            long drainStarted = System.nanoTime();
            while (arrivals.latencies(from, to).length < measuredRecords) {
                checkRunning(job, arrivals);
                if (System.nanoTime() - drainStarted > DRAIN_DEADLINE.toNanos()) {
                    throw new IllegalStateException(
                            "after " + DRAIN_DEADLINE + " " + arrivals.latencies(from, to).length + " of "
                                    + measuredRecords + " measured descriptors had arrived on " + descriptorTopic);
                }
                Thread.sleep(POLL.toMillis());
            }
            LatencyPercentiles percentiles = LatencyPercentiles.of(arrivals.latencies(from, to));
            return new FreshnessFigures(
                    interval,
                    bytesPerSecond,
                    measuredRecords,
                    Duration.ofMillis(percentiles.p50()),
                    Duration.ofMillis(percentiles.p99()),
                    Duration.ofMillis(percentiles.max()));
        } finally {
            arrivals.stop();
            reader.join();
        }
    }

    /**
     * After the rate starts, records are not measured for a checkpoint interval, at least {@link #MIN_WARM_UP}: the JIT
     * catches up with it.
     */
    private Duration warmUp() {
        return interval.compareTo(MIN_WARM_UP) > 0 ? interval : MIN_WARM_UP;
    }

    /** The descriptor topic's records as they arrive, read on a thread of their own so that none waits for a send. */
    private final class Arrivals implements Runnable {
        private final AtomicLongArray sentAt;
        /**
         * Each arrival as {record index, arrival time in epoch milliseconds}. The index comes from
         * the descriptor's key, the input record's: a descriptor record's timestamp is when the
         * descriptor was sent, not the input record's (the manifest has no timestamp column).
         */
        private final List<long[]> arrived = new ArrayList<>();

        Arrivals(AtomicLongArray sentAt) {
            this.sentAt = sentAt;
        }

        private volatile boolean stopped;
        private volatile Exception failure;

        @Override
        public void run() {
            try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
                List<TopicPartition> descriptorPartitions =
                        consumer.partitionsFor(descriptorTopic, Duration.ofSeconds(30)).stream()
                                .map(info -> new TopicPartition(descriptorTopic, info.partition()))
                                .toList();
                consumer.assign(descriptorPartitions);
                consumer.seekToBeginning(descriptorPartitions);
                while (!stopped) {
                    for (ConsumerRecord<byte[], byte[]> descriptor : consumer.poll(POLL)) {
                        long now = System.currentTimeMillis();
                        synchronized (arrived) {
                            arrived.add(new long[] {SizedBlobWorkload.index(descriptor.key()), now});
                        }
                    }
                }
            } catch (RuntimeException e) {
                failure = e;
            }
        }

        boolean any() {
            synchronized (arrived) {
                return !arrived.isEmpty();
            }
        }

        /**
         * Latencies in milliseconds, send to arrival, of the descriptors of records {@code from} to {@code to}
         * (exclusive).
         */
        long[] latencies(int from, int to) {
            synchronized (arrived) {
                return arrived.stream()
                        .filter(a -> a[0] >= from && a[0] < to)
                        .mapToLong(a -> a[1] - sentAt.get((int) a[0]))
                        .toArray();
            }
        }

        void stop() {
            stopped = true;
        }
    }

    private static void checkRunning(BackgroundRun job, Arrivals arrivals) {
        if (job.ended().isPresent()) {
            throw new IllegalStateException(job.ended().get());
        }
        if (arrivals.failure != null) {
            throw new IllegalStateException("reading the descriptor topic failed", arrivals.failure);
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        Properties config = DemoProducer.config(bootstrapServers);
        // Sent as stamped: batching would age records before they leave.
        config.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, Long.toString(POLL.toMillis()));
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
