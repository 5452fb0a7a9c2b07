package io.blobingest.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.bench.SteadyFigures;
import io.blobingest.bench.internal.SteadyWindow.Sample;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SteadyWindowTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void theWindowRunsFromTheFirstCommitAtOrPastAQuarterToTheFirstAtOrPastNinetyPercent() {
        // Commits at checkpoints: 10% at 1 s, 30% at 2 s, 60% at 3 s, 95% at 4 s, 100% at 5 s.
        List<Sample> samples = List.of(
                new Sample(0, 0, 0),
                new Sample(SECOND, 100, SECOND),
                new Sample(SECOND + SECOND / 2, 100, 2 * SECOND),
                new Sample(2 * SECOND, 300, 3 * SECOND),
                new Sample(3 * SECOND, 600, 4 * SECOND),
                new Sample(4 * SECOND, 950, 6 * SECOND),
                new Sample(5 * SECOND, 1_000, 7 * SECOND));

        assertThat(SteadyWindow.select(samples, 1_000))
                .contains(new SteadyFigures(650, Duration.ofSeconds(2), Duration.ofSeconds(3)));
    }

    @Test
    void exactlyAtTheFractionsCountsAsReachingThem() {
        List<Sample> samples = List.of(new Sample(0, 250, 0), new Sample(SECOND, 900, SECOND));

        assertThat(SteadyWindow.select(samples, 1_000))
                .contains(new SteadyFigures(650, Duration.ofSeconds(1), Duration.ofSeconds(1)));
    }

    @Test
    void aRunThatCommitsQuarterAndNinetyPercentAtOnceHasNoSteadyPhase() {
        List<Sample> samples = List.of(new Sample(0, 0, 0), new Sample(SECOND, 1_000, SECOND));

        assertThat(SteadyWindow.select(samples, 1_000)).isEmpty();
    }

    @Test
    void aRunWhoseCommitsNeverReachNinetyPercentHasNoSteadyPhase() {
        List<Sample> samples = List.of(new Sample(0, 300, 0), new Sample(SECOND, 899, SECOND));

        assertThat(SteadyWindow.select(samples, 1_000)).isEmpty();
    }
}
