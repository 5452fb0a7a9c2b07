package io.blobingest.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class SizedBlobWorkloadTest {

    private static final int MIN = 4 * 1024;
    private static final int MAX = 64 * 1024;

    @Test
    void everySizeIsWithinTheBoundsAndTheMeanNearTheMiddle() {
        SizedBlobWorkload workload = new SizedBlobWorkload(42, MIN, MAX, 20_000);

        long total = 0;
        int smallest = Integer.MAX_VALUE;
        int largest = 0;
        for (int i = 0; i < workload.count(); i++) {
            int size = workload.size(i);
            total += size;
            smallest = Math.min(smallest, size);
            largest = Math.max(largest, size);
        }
        assertThat(smallest).isGreaterThanOrEqualTo(MIN).isLessThan(MIN + 1024);
        assertThat(largest).isLessThanOrEqualTo(MAX).isGreaterThan(MAX - 1024);
        assertThat((double) total / workload.count())
                .isCloseTo((MIN + MAX) / 2.0, org.assertj.core.data.Percentage.withPercentage(2));
    }

    @Test
    void countIsChosenSoThatTheTotalIsAboutTheBytesAskedFor() {
        SizedBlobWorkload workload = SizedBlobWorkload.ofTotalBytes(42, MIN, MAX, 340L * 1024 * 1024);

        assertThat(workload.count()).isEqualTo(10_240);
        assertThat(SizedBlobWorkload.ofTotalBytes(42, MIN, MAX, 1).count()).isEqualTo(1);
    }

    @Test
    void recordsAreAPureFunctionOfSeedAndIndex() {
        SizedBlobWorkload first = new SizedBlobWorkload(7, MIN, MAX, 10);
        SizedBlobWorkload again = new SizedBlobWorkload(7, MIN, MAX, 10);
        SizedBlobWorkload other = new SizedBlobWorkload(8, MIN, MAX, 10);

        ProducerRecord<byte[], byte[]> record = first.record("t", 2, 3);
        assertThat(record.partition()).isEqualTo(1);
        assertThat(record.value()).hasSize(first.size(3)).isEqualTo(again.value(3));
        assertThat(Arrays.equals(record.value(), other.value(3))).isFalse();
    }

    @Test
    void aRecordsIndexIsReadBackFromItsKey() {
        SizedBlobWorkload workload = new SizedBlobWorkload(7, 10, 20, 100);

        assertThat(SizedBlobWorkload.index(workload.record("t", 2, 57).key())).isEqualTo(57);
        assertThatThrownBy(() -> SizedBlobWorkload.index("other-3".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("other-3");
    }
}
