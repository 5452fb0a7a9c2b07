package io.blobingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.bench.internal.KeyValueLine;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FreshnessFiguresTest {

    static FreshnessFigures figures(Duration interval, long p99Millis) {
        return new FreshnessFigures(
                interval,
                40_000_000,
                12_345,
                Duration.ofMillis(p99Millis / 2),
                Duration.ofMillis(p99Millis),
                Duration.ofMillis(p99Millis + 300));
    }

    @Test
    void theFiguresTheFreshnessRunReportsOnItsResultLineAreTheFiguresTheBenchPrints() {
        FreshnessFigures figures = figures(Duration.ofSeconds(2), 2_900);

        FreshnessFigures reported =
                FreshnessFigures.fromLine(KeyValueLine.parse(figures.toLine().toString()));

        assertThat(reported).isEqualTo(figures);
    }

    @Test
    void p99OverIntervalIsHowManyCheckpointIntervalsTheP99LatencyTakes() {
        assertThat(figures(Duration.ofSeconds(2), 3_000).p99OverInterval()).isEqualTo(1.5);
        assertThat(figures(Duration.ofSeconds(10), 10_000).p99OverInterval()).isEqualTo(1.0);
    }
}
