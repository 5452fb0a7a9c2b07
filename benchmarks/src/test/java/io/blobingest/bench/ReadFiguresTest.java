package io.blobingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.bench.internal.KeyValueLine;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadFiguresTest {

    @Test
    void theFiguresAChildReportsOnItsResultLineAreTheFiguresTheBenchPrints() {
        ReadFigures figures = new ReadFigures(
                10_000,
                61_000,
                340_000_000,
                new ReadFigures.Way(Duration.ofMillis(110), 6_500),
                new ReadFigures.Way(Duration.ofMillis(700), 10_000),
                new ReadFigures.Way(Duration.ofMillis(100), 10_000),
                10_000,
                List.of(
                        new ReadFigures.HoleLimitWay(65_536, new ReadFigures.Way(Duration.ofMillis(120), 4_000)),
                        new ReadFigures.HoleLimitWay(1_048_576, new ReadFigures.Way(Duration.ofMillis(300), 900))));

        ReadFigures reported =
                ReadFigures.fromLine(KeyValueLine.parse(figures.toLine().toString()));

        assertThat(reported).isEqualTo(figures);
        assertThat(reported.requestsSingleVsBatch()).isEqualTo(10_000.0 / 6_500);
    }
}
