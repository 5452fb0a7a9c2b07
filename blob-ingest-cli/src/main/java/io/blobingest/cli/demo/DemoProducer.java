package io.blobingest.cli.demo;

import io.blobingest.broker.EmbeddedKafkaBroker;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Sends the workload to the input topic, every record acknowledged by the broker. */
public final class DemoProducer {

    private final String bootstrapServers;

    public DemoProducer(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * Sends record {@code i} to partition {@code i % partitions} for every {@code i}, in order.
     *
     * @param acknowledged told how many records the broker has acknowledged so far, now and then
     */
    public void produce(DemoWorkload workload, String topic, int partitions, IntConsumer acknowledged)
            throws ExecutionException, InterruptedException {
        produce(workload.count(), index -> workload.producerRecord(topic, partitions, index), topic, acknowledged);
    }

    /**
     * Sends {@code records.apply(i)} for every {@code i} below {@code count}, in order.
     *
     * @param acknowledged told how many records the broker has acknowledged so far, now and then
     */
    public void produce(
            int count, IntFunction<ProducerRecord<byte[], byte[]>> records, String topic, IntConsumer acknowledged)
            throws ExecutionException, InterruptedException {
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(config(bootstrapServers), new ByteArraySerializer(), new ByteArraySerializer())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>(count);
            AtomicInteger done = new AtomicInteger();
            for (int i = 0; i < count; i++) {
                acks.add(producer.send(records.apply(i), (metadata, e) -> done.incrementAndGet()));
                if (i % 100 == 99) {
                    acknowledged.accept(done.get());
                }
            }
            for (int i = 0; i < acks.size(); i++) {
                try {
                    acks.get(i).get();
                } catch (ExecutionException e) {
                    throw new ExecutionException("record " + i + " was not accepted by " + topic, e.getCause());
                }
            }
            acknowledged.accept(acks.size());
        }
    }

    /** The producer's configuration: acknowledged by all replicas, records as large as the embedded broker takes. */
    public static Properties config(String bootstrapServers) {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(EmbeddedKafkaBroker.MAX_MESSAGE_BYTES));
        config.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(2L * EmbeddedKafkaBroker.MAX_MESSAGE_BYTES));
        config.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return config;
    }
}
