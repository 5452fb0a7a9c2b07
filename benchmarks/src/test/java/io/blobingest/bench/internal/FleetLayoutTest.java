package io.blobingest.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;

class FleetLayoutTest {

    @Test
    void recordsGoRoundRobinOverTheTopicsAndWithinEachOverItsPartitionsAtConsecutiveOffsets() {
        FleetLayout layout = new FleetLayout(4, 2);
        int count = 19;
        long[][][] tables = layout.offsetTables(count);
        Map<List<Integer>, Integer> nextOffset = new HashMap<>();

        for (int i = 0; i < count; i++) {
            assertThat(layout.topic(i)).isEqualTo(i % 4);
            List<Integer> partition = List.of(layout.topic(i), layout.partition(i));
            assertThat(layout.offset(i)).as("record %d", i).isEqualTo(nextOffset.getOrDefault(partition, 0));
            nextOffset.merge(partition, 1, Integer::sum);
        }
        // Every partition of every topic gets records, even with as many topics as a multiple of the partitions.
        assertThat(nextOffset).hasSize(8);
        for (int t = 0; t < 4; t++) {
            for (int p = 0; p < 2; p++) {
                assertThat(tables[t][p]).hasSize(nextOffset.get(List.of(t, p)) + 1);
            }
        }
    }

    @Test
    void oneTopicIsTheWorkloadsOwnLayout() {
        FleetLayout layout = new FleetLayout(1, 3);
        SizedBlobWorkload workload = new SizedBlobWorkload(42, 10, 20, 10);

        for (int i = 0; i < 10; i++) {
            ProducerRecord<byte[], byte[]> record = workload.record("t", 3, i);
            assertThat(layout.partition(i)).isEqualTo(record.partition());
            assertThat(layout.offset(i)).isEqualTo(i / 3);
            assertThat(layout.readdress(record, i)).isSameAs(record);
        }
        assertThat(Arrays.stream(layout.offsetTables(10)[0]).mapToInt(table -> table.length))
                .containsExactly(5, 4, 4);
    }

    @Test
    void aReaddressedRecordIsTheSameRecordOnItsFleetPartition() {
        FleetLayout layout = new FleetLayout(4, 2);
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
                "t-fleet-1",
                1,
                null,
                "key".getBytes(StandardCharsets.UTF_8),
                new byte[] {1, 2, 3},
                List.of(new RecordHeader("blob.mode", "ingest".getBytes(StandardCharsets.UTF_8))));

        ProducerRecord<byte[], byte[]> moved = layout.readdress(record, 5);

        assertThat(moved.partition()).isEqualTo(layout.partition(5)).isEqualTo(1);
        ProducerRecord<byte[], byte[]> movedAgain = layout.readdress(record, 9);
        assertThat(movedAgain.partition()).isZero();
        assertThat(movedAgain.topic()).isEqualTo("t-fleet-1");
        assertThat(movedAgain.key()).isSameAs(record.key());
        assertThat(movedAgain.value()).isSameAs(record.value());
        assertThat(movedAgain.headers()).isEqualTo(record.headers());
    }
}
