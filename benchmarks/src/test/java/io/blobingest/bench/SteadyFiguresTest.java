package io.blobingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SteadyFiguresTest {

    @Test
    void rateAndCpuAreOverTheWindowOnly() {
        SteadyFigures steady = new SteadyFigures(500_000_000, Duration.ofSeconds(4), Duration.ofSeconds(3));

        assertThat(steady.megabytesPerSecond()).isEqualTo(125.0);
        assertThat(steady.cpuSecondsPerGigabyte()).isEqualTo(6.0);
    }
}
