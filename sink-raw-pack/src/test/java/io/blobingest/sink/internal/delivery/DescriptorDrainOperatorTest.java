package io.blobingest.sink.internal.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.runtime.operators.coordination.OperatorEventHandler;
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

    @Test
    void inTheWritersTaskTheEndWaitsForOneCheckpointCompletedAfterIt() throws Exception {
        try (var harness = harness(DescriptorDrainOperator.inWriterTask())) {
            harness.open();
            harness.snapshot(1, 1);
            harness.notifyOfCompletedCheckpoint(1);
            mail(harness, "checkpoint 2, aborted", () -> {
                harness.snapshot(2, 2);
                harness.getOneInputOperator().notifyCheckpointAborted(2);
            });
            mail(harness, "checkpoint 3", () -> {
                harness.snapshot(3, 3);
                harness.notifyOfCompletedCheckpoint(3);
            });

            harness.endInput();

            assertThat(harness.getTaskMailbox().hasMail())
                    .as("checkpoint 1, taken before the end, does not count: every mail was needed")
                    .isFalse();
        }
    }

    @Test
    void inFrontOfTheRoutingTheEndWaitsForTheCoordinatorsReleaseAfterTheCheckpoints() throws Exception {
        try (var harness = harness(DescriptorDrainOperator.beforeRouting(2, "signal"))) {
            harness.open();
            mail(harness, "checkpoint 1", () -> {
                harness.snapshot(1, 1);
                harness.notifyOfCompletedCheckpoint(1);
            });
            mail(harness, "checkpoint 2", () -> {
                harness.snapshot(2, 2);
                harness.notifyOfCompletedCheckpoint(2);
            });
            mail(harness, "checkpoint 3, whose delivery check found the descriptors aborted", () -> {
                harness.snapshot(3, 3);
                harness.notifyOfCompletedCheckpoint(3);
            });
            mail(harness, "the release", () -> release(harness));
            mail(harness, "checkpoint 4", () -> harness.snapshot(4, 4));

            harness.endInput();

            assertThat(harness.getTaskMailbox().size())
                    .as("the end passed at the release, not at the second checkpoint")
                    .isEqualTo(1);
        }
    }

    @Test
    void inFrontOfTheRoutingAnEarlyReleaseStillWaitsForTheCheckpoints() throws Exception {
        try (var harness = harness(DescriptorDrainOperator.beforeRouting(1, "signal"))) {
            harness.open();
            release(harness);
            mail(harness, "checkpoint 1", () -> {
                harness.snapshot(1, 1);
                harness.notifyOfCompletedCheckpoint(1);
            });
            mail(harness, "checkpoint 2", () -> harness.snapshot(2, 2));

            harness.endInput();

            assertThat(harness.getTaskMailbox().size())
                    .as("the end passed once checkpoint 1 completed")
                    .isEqualTo(1);
        }
    }

    private static void release(OneInputStreamOperatorTestHarness<String, String> harness) {
        ((OperatorEventHandler) harness.getOneInputOperator()).handleOperatorEvent(new DrainCoordinator.Release());
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
