package io.blobingest.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.streaming.runtime.tasks.mailbox.Mail;
import org.apache.flink.streaming.runtime.tasks.mailbox.TaskMailbox;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.function.ThrowingRunnable;
import org.junit.jupiter.api.Test;

/**
 * How long each {@link DescriptorDrainOperator} holds the end of input. {@code endInput} serves the
 * task's mailbox while it waits; the mails put here stand for what reaches a task meanwhile.
 */
class DescriptorDrainOperatorTest {

    private static final Duration NOTIFICATION_TIMEOUT = Duration.ofMinutes(1);

    @Test
    void inFrontOfTheRoutingTheEndWaitsForTwoCheckpointsCompletedAfterIt() throws Exception {
        try (var harness = harness(DescriptorDrainOperator.afterEndOfInput(2))) {
            harness.open();
            harness.snapshot(1, 1);
            harness.notifyOfCompletedCheckpoint(1);
            mail(harness, "checkpoint 2", () -> {
                harness.snapshot(2, 2);
                harness.notifyOfCompletedCheckpoint(2);
            });
            mail(harness, "checkpoint 3, aborted", () -> {
                harness.snapshot(3, 3);
                harness.getOneInputOperator().notifyCheckpointAborted(3);
            });
            mail(harness, "checkpoint 4", () -> {
                harness.snapshot(4, 4);
                harness.notifyOfCompletedCheckpoint(4);
            });

            harness.endInput();

            assertThat(harness.getTaskMailbox().hasMail())
                    .as("checkpoint 1, taken before the end, does not count: every mail was needed")
                    .isFalse();
        }
    }

    @Test
    void behindTheRoutingTheEndWaitsOnlyForTheNotificationsOfCheckpointsTheTaskTook() throws Exception {
        try (var harness = harness(DescriptorDrainOperator.behindNetworkInput(NOTIFICATION_TIMEOUT))) {
            harness.open();
            harness.processElement("blob", 1);
            harness.snapshot(1, 1);
            harness.notifyOfCompletedCheckpoint(1);
            harness.snapshot(2, 2);
            mail(harness, "notification of checkpoint 2", () -> harness.notifyOfCompletedCheckpoint(2));
            mail(harness, "checkpoint 3", () -> harness.snapshot(3, 3));

            harness.endInput();

            assertThat(harness.getTaskMailbox().size())
                    .as("the end passed once checkpoint 2 was notified, before any new checkpoint")
                    .isEqualTo(1);
            assertThat(harness.extractOutputValues()).containsExactly("blob");
        }
    }

    @Test
    void behindTheRoutingALostNotificationFailsTheTaskAtTheTimeout() throws Exception {
        try (var harness = harness(DescriptorDrainOperator.behindNetworkInput(NOTIFICATION_TIMEOUT))) {
            harness.open();
            harness.setProcessingTime(0);
            harness.snapshot(1, 1);
            mail(harness, "the timeout passes", () -> harness.setProcessingTime(NOTIFICATION_TIMEOUT.toMillis()));

            assertThatThrownBy(harness::endInput)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the notifications of the checkpoints this task took (up to 1) did not arrive"
                            + " within PT1M (the last was for checkpoint -1)");
        }
    }

    private static OneInputStreamOperatorTestHarness<String, String> harness(
            DescriptorDrainOperator.Factory<String> drain) throws Exception {
        return new OneInputStreamOperatorTestHarness<>(drain, StringSerializer.INSTANCE);
    }

    private static void mail(
            OneInputStreamOperatorTestHarness<?, ?> harness, String description, ThrowingRunnable<Exception> action)
            throws Exception {
        harness.getTaskMailbox().put(new Mail(action, TaskMailbox.MAX_PRIORITY, description));
    }
}
