package io.blobingest.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlacementPolicyTest {

    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;

    @ParameterizedTest(name = "{0} bytes -> {1}")
    @CsvSource({
        "0, INLINE",
        "65536, INLINE",
        "65537, PACKED",
        "4194304, PACKED",
        "4194305, DEDICATED",
        "2147483648, DEDICATED",
    })
    void lanceDefaultsPlaceBySizeAtTheBoundaries(long size, Placement expected) {
        assertThat(PlacementPolicy.lanceDefaults().place(size)).isEqualTo(expected);
    }

    @Test
    void lanceDefaultsAreLancesThresholds() {
        assertThat(PlacementPolicy.lanceDefaults()).isEqualTo(new PlacementPolicy(64 * KIB, 4 * MIB, 1024 * MIB));
    }

    @Test
    void customThresholdsMoveTheBoundaries() {
        PlacementPolicy policy = new PlacementPolicy(10, 100, 1000);

        assertThat(policy.place(10)).isEqualTo(Placement.INLINE);
        assertThat(policy.place(11)).isEqualTo(Placement.PACKED);
        assertThat(policy.place(100)).isEqualTo(Placement.PACKED);
        assertThat(policy.place(101)).isEqualTo(Placement.DEDICATED);
    }

    @Test
    void zeroInlineMaximumInlinesOnlyEmptyBlobs() {
        PlacementPolicy policy = new PlacementPolicy(0, 1, 1);

        assertThat(policy.place(0)).isEqualTo(Placement.INLINE);
        assertThat(policy.place(1)).isEqualTo(Placement.PACKED);
        assertThat(policy.place(2)).isEqualTo(Placement.DEDICATED);
    }

    @Test
    void packMaximumMayEqualTheDedicatedThreshold() {
        assertThat(new PlacementPolicy(1, 2, 2).packMaxBytes()).isEqualTo(2);
    }

    @Test
    void rejectsNegativeInlineMaximum() {
        assertThatThrownBy(() -> new PlacementPolicy(-1, 10, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("inline maximum must be >= 0 bytes, found -1");
    }

    @Test
    void rejectsDedicatedThresholdNotAboveInlineMaximum() {
        assertThatThrownBy(() -> new PlacementPolicy(100, 100, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("dedicated threshold (100 bytes) must exceed the inline maximum (100 bytes)");
    }

    @Test
    void rejectsPackMaximumBelowDedicatedThreshold() {
        assertThatThrownBy(() -> new PlacementPolicy(10, 100, 99))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("pack maximum (99 bytes) must be >= the dedicated threshold (100 bytes)");
    }

    @Test
    void rejectsNegativeSize() {
        assertThatThrownBy(() -> PlacementPolicy.lanceDefaults().place(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("blob size must be >= 0 bytes, found -1");
    }
}
