package io.blobingest.bench.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CollapsedStacksTest {

    @Test
    void theSamplesBetweenTwoDumpsAreTheLaterMinusTheEarlier() {
        List<String> earlier = List.of("[main tid=1];a_[j];b_[j] 5", "[task tid=7];c_[j] 2");
        List<String> later = List.of("[main tid=1];a_[j];b_[j] 9", "[task tid=7];c_[j] 2", "[task tid=7];d_[k] 4");

        assertThat(CollapsedStacks.minus(later, earlier))
                .containsExactly("[main tid=1];a_[j];b_[j] 4", "[task tid=7];d_[k] 4");
    }

    @Test
    void aStackNamedTwiceIsCountedOnce() {
        assertThat(CollapsedStacks.minus(List.of("a;b 3", "a;b 2", ""), List.of("a;b 1")))
                .containsExactly("a;b 4");
    }

    @Test
    void anEarlierDumpWithMoreSamplesThanTheLaterIsRejected() {
        assertThatThrownBy(() -> CollapsedStacks.minus(List.of("a;b 1"), List.of("a;b 2")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not two dumps of one profile, in order: a;b");
    }

    @Test
    void aLineWithoutACountIsRejectedWithItsNumber() {
        assertThatThrownBy(() -> CollapsedStacks.minus(List.of("a;b 1", "a;b"), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("later dump, line 2: expected '<frame>;<frame>;... <count>', found 'a;b'");
    }
}
