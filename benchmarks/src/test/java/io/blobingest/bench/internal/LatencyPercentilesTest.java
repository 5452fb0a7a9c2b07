package io.blobingest.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LatencyPercentilesTest {

    @Test
    void nearestRankOfAHundredLatenciesIsTheFiftiethAndTheNinetyNinth() {
        long[] latencies = LongStream.rangeClosed(1, 100).map(i -> 101 - i).toArray();

        assertThat(LatencyPercentiles.of(latencies)).isEqualTo(new LatencyPercentiles(50, 99, 100));
    }

    @Test
    void withFewerThanAHundredLatenciesTheP99IsTheLargest() {
        assertThat(LatencyPercentiles.of(new long[] {30, 10, 20})).isEqualTo(new LatencyPercentiles(20, 30, 30));
    }

    @Test
    void oneLatencyIsEveryPercentile() {
        assertThat(LatencyPercentiles.of(new long[] {7})).isEqualTo(new LatencyPercentiles(7, 7, 7));
    }

    @Test
    void noLatencyIsRefused() {
        assertThatThrownBy(() -> LatencyPercentiles.of(new long[0])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theCallersArrayIsLeftInItsOrder() {
        long[] latencies = {3, 1, 2};

        LatencyPercentiles.of(latencies);

        assertThat(latencies).containsExactly(3, 1, 2);
    }
}
