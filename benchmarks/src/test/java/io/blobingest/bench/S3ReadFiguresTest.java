package io.blobingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.bench.internal.KeyValueLine;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class S3ReadFiguresTest {

    /** Batch 1 s, one at a time 40 s, ideal 0.8 s, Lance-style 1.25 s. */
    static S3ReadFigures figures(long verified) {
        return new S3ReadFigures(
                10_000,
                340_000_000,
                180,
                Duration.ofMillis(20),
                200_000_000,
                new ReadFigures.Way(Duration.ofSeconds(1), 2_000),
                new ReadFigures.Way(Duration.ofMillis(1_250), 6_000),
                new ReadFigures.Way(Duration.ofSeconds(40), 10_000),
                400,
                new ReadFigures.Way(Duration.ofSeconds(9), 8_000),
                List.of(new ReadFigures.HoleLimitWay(65_536, new ReadFigures.Way(Duration.ofMillis(1_100), 6_000))),
                Duration.ofMillis(800),
                verified);
    }

    @Test
    void theFiguresTheS3ReadSideReportsOnItsResultLineAreTheFiguresTheBenchPrints() {
        S3ReadFigures figures = figures(10_000);

        S3ReadFigures reported =
                S3ReadFigures.fromLine(KeyValueLine.parse(figures.toLine().toString()));

        assertThat(reported).isEqualTo(figures);
    }

    @Test
    void ratiosAreOneAtATimeOverBatchAndBatchOverIdealAndOverLanceStyle() {
        S3ReadFigures figures = figures(10_000);

        assertThat(figures.batchSpeedup()).isEqualTo(40.0);
        assertThat(figures.batchVsIdeal()).isEqualTo(1.25);
        assertThat(figures.batchVsLanceStyle()).isEqualTo(0.8);
    }
}
