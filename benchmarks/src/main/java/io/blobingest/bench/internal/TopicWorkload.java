package io.blobingest.bench.internal;

import org.apache.kafka.clients.producer.ProducerRecord;

/** Records to preload into the bench's input topic, each a pure function of its index. */
public interface TopicWorkload {

    int count();

    /** Record {@code index} as sent to partition {@code index % partitions}. */
    ProducerRecord<byte[], byte[]> record(String topic, int partitions, int index);
}
