package io.blobingest.bench.internal;

import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Where the bench preloads record {@code i} of a workload when it spreads the records over {@code topics} topics of
 * {@code partitions} partitions each: topic {@code i % topics}, round-robin, and within it, as on one topic, the
 * partitions in turn: partition {@code (i / topics) % partitions}, at offset {@code (i / topics) / partitions}. With
 * one topic that is where {@link TopicWorkload#record} puts it, partition {@code i % partitions}.
 */
final class FleetLayout {

    private final int topics;
    private final int partitions;

    FleetLayout(int topics, int partitions) {
        if (topics < 1 || partitions < 1) {
            throw new IllegalArgumentException(
                    "need at least one topic and one partition, found " + topics + " and " + partitions);
        }
        this.topics = topics;
        this.partitions = partitions;
    }

    /** The index of record {@code index}'s topic. */
    int topic(int index) {
        return index % topics;
    }

    int partition(int index) {
        return (index / topics) % partitions;
    }

    int offset(int index) {
        return index / topics / partitions;
    }

    /**
     * Per topic, per partition, a table of one more entry than the partition receives of {@code count} records, all
     * zero: for the value bytes before each offset.
     */
    long[][][] offsetTables(int count) {
        long[][][] tables = new long[topics][partitions][];
        for (int t = 0; t < topics; t++) {
            int inTopic = (count - t + topics - 1) / topics;
            for (int p = 0; p < partitions; p++) {
                tables[t][p] = new long[(inTopic - p + partitions - 1) / partitions + 1];
            }
        }
        return tables;
    }

    /** {@code record}, the workload's record {@code index}, sent to {@link #partition} of its topic instead. */
    ProducerRecord<byte[], byte[]> readdress(ProducerRecord<byte[], byte[]> record, int index) {
        int partition = partition(index);
        if (record.partition() != null && record.partition() == partition) {
            return record;
        }
        return new ProducerRecord<>(
                record.topic(), partition, record.timestamp(), record.key(), record.value(), record.headers());
    }
}
