package io.blobingest.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.cli.demo.DemoWorkload;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MixedWorkloadTest {

    private static final Path EXTERNAL = Path.of("/data/bench/external").toAbsolutePath();

    @Test
    void takesJustEnoughOfTheDemoMixForTheBytesAskedFor() {
        long target = 64L * 1024 * 1024;

        DemoWorkload demo = MixedWorkload.ofTotalBytes(42, target, EXTERNAL).demo();

        assertThat(demo.inputBytes()).isGreaterThanOrEqualTo(target);
        DemoWorkload oneFewer = new DemoWorkload(42, demo.count() - 1, EXTERNAL);
        assertThat(oneFewer.inputBytes()).isLessThan(target);
    }

    @Test
    void neverFewerRecordsThanTheDemoNeedsForEveryKind() {
        assertThat(MixedWorkload.ofTotalBytes(42, 1, EXTERNAL).count()).isEqualTo(DemoWorkload.MIN_COUNT);
    }
}
