package io.blobingest.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProcessStatsTest {

    @Test
    void readsKilobytesOfAStatusLine() {
        assertThat(ProcessStats.parseKilobytes("VmHWM:\t  466112 kB")).isEqualTo(466_112);
    }

    @Test
    void refusesALineInOtherUnits() {
        assertThatThrownBy(() -> ProcessStats.parseKilobytes("VmHWM: 455 MB"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("VmHWM: 455 MB");
    }

    @Test
    void thisProcessHasAPeakResidentSetAndCpuTime() throws Exception {
        assertThat(ProcessStats.peakResidentBytes()).isGreaterThan(1024 * 1024);
        assertThat(ProcessStats.cpuTime()).isPositive();
    }
}
