package io.blobingest.sink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** When the drains in front of the routing are released, from what drains and emitters reported. */
class DrainSignalTest {

    private final DrainSignal signal = new DrainSignal();
    private final AtomicInteger releases = new AtomicInteger();

    @BeforeEach
    void twoDrainsAndTwoEmitters() {
        signal.register(DrainCoordinator.Role.DRAIN, 2, releases::incrementAndGet);
        signal.register(DrainCoordinator.Role.EMITTER, 2, null);
    }

    @Test
    void theDrainsAreReleasedOnceEveryEmitterIsSettledThroughTheLatestCheckpointAfterAnEnd() {
        signal.inputEnded(0, 3);
        signal.settled(0, 4);
        signal.settled(1, 4);
        assertThat(signal.released()).as("drain 1's input has not ended").isFalse();

        signal.inputEnded(1, 5);
        assertThat(signal.released())
                .as("settled through 4, drain 1 ended at 5")
                .isFalse();

        signal.settled(0, 5);
        signal.settled(1, 6);
        assertThat(signal.released()).isTrue();
        assertThat(releases).as("the drains' coordinator heard of it").hasValue(1);
    }

    @Test
    void anEmitterThatHasNotReportedHoldsTheDrains() {
        signal.inputEnded(0, 3);
        signal.inputEnded(1, 3);
        signal.settled(0, 9);

        assertThat(signal.released()).isFalse();
        assertThat(releases).hasValue(0);
    }

    @Test
    void aResetSubtaskMustReportAgain() {
        signal.inputEnded(0, 3);
        signal.inputEnded(1, 3);
        signal.settled(0, 3);
        signal.settled(1, 3);
        assertThat(signal.released()).isTrue();

        signal.forget(DrainCoordinator.Role.EMITTER, 1);
        assertThat(signal.released()).as("emitter 1 was reset").isFalse();
        signal.settled(1, 4);
        signal.forgetAll(DrainCoordinator.Role.DRAIN);
        assertThat(signal.released()).as("every drain was reset").isFalse();
        signal.inputEnded(0, 7);
        signal.inputEnded(1, 7);
        assertThat(signal.released())
                .as("the emitters settled through 3 and 4, the drains ended at 7")
                .isFalse();
    }

    @Test
    void withoutEmittersNothingIsReleased() {
        DrainSignal drainsOnly = new DrainSignal();
        drainsOnly.register(DrainCoordinator.Role.DRAIN, 1, () -> {});
        drainsOnly.inputEnded(0, 1);

        assertThat(drainsOnly.released()).isFalse();
    }
}
