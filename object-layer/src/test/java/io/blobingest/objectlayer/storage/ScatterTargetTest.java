package io.blobingest.objectlayer.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ScatterTargetTest {

    @Test
    void aSuppliedArrayIsAskedForOnceOnTheFirstCall() {
        AtomicInteger asked = new AtomicInteger();
        ScatterTarget target = ScatterTarget.into(
                () -> {
                    asked.incrementAndGet();
                    return new byte[10];
                },
                2,
                8);

        assertThat(asked).as("not at construction").hasValue(0);
        byte[] array = target.array();

        assertThat(target.array()).isSameAs(array);
        assertThat(asked).hasValue(1);
        assertThat(target.isHole()).isFalse();
    }

    @Test
    void aSuppliedArrayTooShortForTheTargetIsRefused() {
        ScatterTarget target = ScatterTarget.into(() -> new byte[9], 2, 8);

        assertThatThrownBy(target::array).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aHoleHasNoArray() {
        ScatterTarget hole = ScatterTarget.skip(100);

        assertThat(hole.isHole()).isTrue();
        assertThat(hole.array()).isNull();
        assertThat(hole.length()).isEqualTo(100);
    }
}
