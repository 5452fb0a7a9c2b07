package io.blobingest.sink.internal.delivery;

import static io.blobingest.sink.internal.writer.WriterHarness.commit;
import static io.blobingest.sink.internal.writer.WriterHarness.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.DescriptorDeliveryCheck;
import io.blobingest.sink.DescriptorDeliveryCheck.Outcome;
import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.RawPackSink;
import io.blobingest.sink.RollPolicy;
import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.sink.internal.writer.RawPackSinkWriter;
import io.blobingest.sink.internal.writer.WriterHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.LongStream;
import org.apache.flink.api.common.accumulators.Accumulator;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.mailbox.Mail;
import org.apache.flink.streaming.runtime.tasks.mailbox.TaskMailbox;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.function.ThrowingRunnable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emitter's bookkeeping of descriptor epochs, against a scripted {@link DescriptorDeliveryCheck}
 * (the Kafka one, on a real broker, is covered by {@code DescriptorTransactionLossITCase}).
 */
class CommittedDescriptorEmitterTest {

    private static final long MIB = 1024 * 1024;
    private static final int MAX_PARALLELISM = 128;
    /** Outcome per epoch, per test; absent = the check cannot answer. */
    private static final Map<String, Map<Long, Outcome>> OUTCOMES = new ConcurrentHashMap<>();
    /** The tests whose check finds the destination changed. */
    private static final Set<String> DESTINATION_CHANGED = ConcurrentHashMap.newKeySet();
    /** What the check was told about each epoch it was asked about, per test. */
    private static final Map<String, List<Asked>> ASKED = new ConcurrentHashMap<>();

    private record Asked(int subtask, long epoch, long firstRowSentAtMillis, Optional<DescriptorRow> sampleRow) {}

    @TempDir
    Path base;

    private final String testId = UUID.randomUUID().toString();

    @Test
    void noRowIsSentAndNoEpochClosedOnceTheDestinationChanged() throws Exception {
        WriterHarness writers = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        BlobSetCommittable first = committedSet(writers);
        BlobSetCommittable second = committedSet(writers);
        try (var harness = harness(writers)) {
            harness.open();
            harness.processElement(committed(first, 1));
            harness.snapshot(1, 1);
            DESTINATION_CHANGED.add(testId);

            // The next epoch's first row is not sent.
            assertThatThrownBy(() -> harness.processElement(committed(second, 2)))
                    .hasStackTraceContaining("the destination changed");
            assertThat(rows(harness)).hasSize((int) first.rowCount());
        }
        DESTINATION_CHANGED.remove(testId);
        try (var harness = harness(writers)) {
            harness.open();
            harness.processElement(committed(second, 2));
            DESTINATION_CHANGED.add(testId);

            // The barrier of an epoch whose rows were sent before the change fails before it leaves.
            assertThatThrownBy(() -> harness.prepareSnapshotPreBarrier(2))
                    .hasStackTraceContaining("the destination changed");
        }
        try (var harness = harness(writers)) {
            assertThatThrownBy(harness::open).hasStackTraceContaining("the destination changed");
        }
    }

    @Test
    void anAbortedEpochIsEmittedAgainAndACommittedOneIsForgottenWithItsMarker() throws Exception {
        WriterHarness writers = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        BlobSetCommittable set = committedSet(writers);
        try (var harness = harness(writers)) {
            harness.open();
            harness.processElement(committed(set, 1));
            harness.snapshot(1, 1);
            assertThat(rows(harness)).hasSize((int) set.rowCount());

            outcome(1, Outcome.OPEN);
            harness.notifyOfCompletedCheckpoint(1);
            assertThat(rows(harness)).as("an open epoch waits").hasSize((int) set.rowCount());

            outcome(1, Outcome.ABORTED);
            harness.notifyOfCompletedCheckpoint(1);
            assertThat(rows(harness)).as("the aborted epoch's set, once more").hasSize(2 * (int) set.rowCount());

            harness.snapshot(2, 2);
            outcome(2, Outcome.COMMITTED);
            harness.notifyOfCompletedCheckpoint(2);
            harness.notifyOfCompletedCheckpoint(3);
            assertThat(rows(harness)).as("nothing more").hasSize(2 * (int) set.rowCount());
        }
        try (var files = Files.walk(base.resolve(DeliveryMarkers.DIRECTORY))) {
            assertThat(files.filter(Files::isRegularFile)
                            .map(p -> p.getFileName().toString()))
                    .containsExactly("2-0");
        }
    }

    @Test
    void theCheckLearnsWhenAnEpochsFirstRowWasSentAndGetsASampleRowNamingItsSet() throws Exception {
        WriterHarness writers = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        BlobSetCommittable set = committedSet(writers);
        OperatorSubtaskState state;
        long before;
        long after;
        try (var harness = harness(writers)) {
            harness.open();
            before = System.currentTimeMillis();
            harness.processElement(committed(set, 1));
            after = System.currentTimeMillis();
            state = harness.snapshot(1, 1);
        }
        outcome(1, Outcome.COMMITTED);
        try (var restored = harness(writers)) {
            restored.setRestoredCheckpointId(1);
            restored.initializeState(state);
            restored.open();
        }
        assertThat(ASKED.get(testId)).singleElement().satisfies(asked -> {
            assertThat(asked.epoch()).isEqualTo(1);
            assertThat(asked.firstRowSentAtMillis()).isBetween(before, after);
            assertThat(asked.sampleRow())
                    .hasValueSatisfying(row -> assertThat(row.blobSet()).isEqualTo(set.blobSet()));
        });
    }

    @Test
    void furtherOutputsGetACommittedSetOnceAndNotItsReEmissionForAnAbortedEpoch() throws Exception {
        WriterHarness writers = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        BlobSetCommittable set = committedSet(writers);
        try (var harness = new OneInputStreamOperatorTestHarness<>(
                new CommittedDescriptorEmitter(writers.settings, new ScriptedCheck(testId), true))) {
            harness.open();
            harness.processElement(committed(set, 1));
            harness.snapshot(1, 1);
            outcome(1, Outcome.ABORTED);
            harness.notifyOfCompletedCheckpoint(1);

            assertThat(rows(harness))
                    .as("to the descriptor sink: the set, and again")
                    .hasSize(2 * (int) set.rowCount());
            assertThat(harness.getSideOutput(CommittedDescriptorEmitter.ONCE))
                    .as("to further outputs: the set once")
                    .hasSize((int) set.rowCount());
        }
    }

    @Test
    void aCheckFailureFailsTheNotificationAndTheEpochStaysInTheCheckpoint() throws Exception {
        WriterHarness writers = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        BlobSetCommittable set = committedSet(writers);
        OperatorSubtaskState state;
        try (var harness = harness(writers)) {
            harness.open();
            harness.processElement(committed(set, 1));
            state = harness.snapshot(1, 1);
            assertThatThrownBy(() -> harness.notifyOfCompletedCheckpoint(1))
                    .hasMessageContaining("cannot learn whether the descriptors of blob sets [" + set.blobSet() + "]");
        }
        outcome(1, Outcome.ABORTED);
        try (var restored = harness(writers)) {
            restored.setRestoredCheckpointId(1);
            restored.initializeState(state);
            restored.open();
            assertThat(rows(restored)).as("re-emitted on restore").hasSize((int) set.rowCount());
        }
    }

    @Test
    void theEndOfInputWaitsUntilEveryClosedEpochIsSettled() throws Exception {
        WriterHarness writers = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        BlobSetCommittable set = committedSet(writers);
        try (var harness = harness(writers)) {
            harness.open();
            harness.processElement(committed(set, 1));
            harness.snapshot(1, 1);
            outcome(1, Outcome.OPEN);
            harness.notifyOfCompletedCheckpoint(1);
            // Served by endInput while it waits, as the task's next checkpoints would be.
            mail(harness, "notification of checkpoint 1, again", () -> {
                outcome(1, Outcome.ABORTED);
                harness.notifyOfCompletedCheckpoint(1);
            });
            mail(harness, "checkpoint 2", () -> checkpoint(harness, 2, Outcome.COMMITTED));
            harness.endInput();

            assertThat(rows(harness))
                    .as("the epoch aborted while the input was ending, sent again before it ended")
                    .hasSize(2 * (int) set.rowCount());
            assertThat(harness.getTaskMailbox().hasMail())
                    .as("the end of input waited for the epoch sent again to commit")
                    .isFalse();
        }
    }

    @Test
    void theEndOfInputWaitsUntilTheCurrentEpochIsCheckedAndSendsItAgainIfItWasAborted() throws Exception {
        WriterHarness writers = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        BlobSetCommittable set = committedSet(writers);
        try (var harness = harness(writers)) {
            harness.open();
            harness.processElement(committed(set, 1));
            // The last set's epoch is still the current one when the input ends.
            mail(harness, "checkpoint 1, its transaction aborted", () -> checkpoint(harness, 1, Outcome.ABORTED));
            mail(harness, "checkpoint 2", () -> checkpoint(harness, 2, Outcome.COMMITTED));
            harness.endInput();

            assertThat(rows(harness))
                    .as("the last epoch, aborted after the end of input, sent again before the input ended")
                    .hasSize(2 * (int) set.rowCount());
            assertThat(harness.getTaskMailbox().hasMail())
                    .as("the end of input waited for both checkpoints")
                    .isFalse();
        }
    }

    /**
     * With {@code within-job} sharing the emitter's task reads its input over the network and takes
     * no checkpoint while it holds the end of input: waiting for the epoch sent again would wait for
     * ever, so it fails the task, and the restore settles the epoch.
     */
    @Test
    void behindContentRoutingTheEndOfInputFailsInsteadOfWaitingForACheckpoint() throws Exception {
        WriterHarness writers =
                new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB, ExactSharing.WITHIN_JOB, 100);
        BlobSetCommittable set = committedSet(writers);
        try (var harness = harness(writers)) {
            harness.open();
            harness.processElement(committed(set, 1));
            checkpoint(harness, 1, Outcome.OPEN);

            assertThatThrownBy(harness::endInput)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("1 closed epochs [PendingDelivery[subtask=0, epoch=1")
                    .hasMessageContaining("reads its input from the network and cannot take the checkpoint");
        }
    }

    @Test
    void aRestoreBehindADeliveredEpochIsRefusedUnlessAllowed() throws Exception {
        WriterHarness writers = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        BlobSetCommittable set = committedSet(writers);
        OperatorSubtaskState older;
        try (var harness = harness(writers)) {
            harness.open();
            older = harness.snapshot(1, 1);
            harness.processElement(committed(set, 1));
            harness.snapshot(2, 2);
            outcome(2, Outcome.COMMITTED);
            harness.notifyOfCompletedCheckpoint(2);
        }
        try (var restored = harness(writers)) {
            restored.setRestoredCheckpointId(1);
            assertThatThrownBy(() -> restored.initializeState(older))
                    .hasStackTraceContaining("restored checkpoint 1 is older than what this job has already delivered: "
                            + "descriptor epoch 2 is committed")
                    .hasStackTraceContaining("sink.raw-pack.allow-older-restore");
        }
        WriterHarness allowing = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB, true);
        try (var restored = harness(allowing)) {
            restored.setRestoredCheckpointId(1);
            restored.initializeState(older);
            restored.open();
        }
        assertThat(Files.list(base.resolve(DeliveryMarkers.DIRECTORY)).findAny().orElseThrow())
                .as("the abandoned run's markers are forgotten")
                .isEmptyDirectory();
    }

    /**
     * A start without restored state is a new run, whose checkpoint ids count from 1 again: the
     * markers an earlier run of the lineage left at higher epochs say nothing about its restores,
     * and go once it has delivered its first epoch.
     */
    @Test
    void aNewRunRestoresItsOwnCheckpointWhateverEarlierRunsDeliveredAndForgetsThem() throws Exception {
        WriterHarness writers = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        BlobSetCommittable first = committedSet(writers);
        BlobSetCommittable second = committedSet(writers);
        try (var earlierRun = harness(writers)) {
            earlierRun.open();
            earlierRun.snapshot(4, 4);
            earlierRun.processElement(committed(first, 4));
            checkpoint(earlierRun, 5, Outcome.COMMITTED);
        }
        assertThat(markerFiles()).as("the earlier run's marker").containsExactly("5-0");
        OperatorSubtaskState latest;
        try (var run = harness(writers)) {
            run.open();
            latest = run.snapshot(1, 1);
        }
        try (var restored = harness(writers)) {
            restored.setRestoredCheckpointId(1);
            restored.initializeState(latest);
            restored.open();
            restored.processElement(committed(second, 1));
            checkpoint(restored, 2, Outcome.COMMITTED);
            assertThat(rows(restored)).hasSize((int) second.rowCount());
        }
        assertThat(markerFiles())
                .as("this run's marker; the earlier run's is gone")
                .containsExactly("2-0");
    }

    /** Every subtask of a restore continues the run of the restored state, at any parallelism. */
    @Test
    void aRestoreAtAnotherParallelismContinuesTheRestoredRun() throws Exception {
        WriterHarness writers = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        BlobSetCommittable set = committedSet(writers);
        CommittedDescriptorEmitter operator =
                new CommittedDescriptorEmitter(writers.settings, new ScriptedCheck(testId), false);
        OperatorSubtaskState[] states = new OperatorSubtaskState[2];
        for (int subtask = 0; subtask < 2; subtask++) {
            try (var harness = new OneInputStreamOperatorTestHarness<>(operator, MAX_PARALLELISM, 2, subtask)) {
                harness.open();
                states[subtask] = harness.snapshot(1, 1);
            }
        }
        OperatorSubtaskState both = AbstractStreamOperatorTestHarness.repackageState(states);
        List<OneInputStreamOperatorTestHarness<CommittableMessage<BlobSetCommittable>, DescriptorRow>> restored =
                new java.util.ArrayList<>();
        try {
            // All restored before any delivers, as in a job.
            for (int subtask = 0; subtask < 3; subtask++) {
                var harness = new OneInputStreamOperatorTestHarness<>(
                        new CommittedDescriptorEmitter(writers.settings, new ScriptedCheck(testId), false),
                        MAX_PARALLELISM,
                        3,
                        subtask);
                restored.add(harness);
                harness.setRestoredCheckpointId(1);
                harness.initializeState(AbstractStreamOperatorTestHarness.repartitionOperatorState(
                        both, MAX_PARALLELISM, 2, 3, subtask));
                harness.open();
            }
            for (var harness : restored) {
                harness.processElement(committed(set, 1));
                checkpoint(harness, 2, Outcome.COMMITTED);
            }
        } finally {
            for (var harness : restored) {
                harness.close();
            }
        }
        try (var runs = Files.list(lineageDirectory())) {
            assertThat(runs.map(p -> p.getFileName().toString()))
                    .as("one run, the restored one")
                    .singleElement()
                    .satisfies(run -> assertThat(DeliveryMarkers.isRunId(run)).isTrue());
        }
        assertThat(markerFiles()).containsExactlyInAnyOrder("2-0", "2-1", "2-2");
    }

    /** The state of an earlier run, restored after a later run delivered, would deliver again what it had. */
    @Test
    void aRestoreOfAnEarlierRunsStateAfterALaterRunDeliveredIsRefused() throws Exception {
        WriterHarness writers = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        BlobSetCommittable set = committedSet(writers);
        OperatorSubtaskState earlier;
        try (var earlierRun = harness(writers)) {
            earlierRun.open();
            earlier = earlierRun.snapshot(1, 1);
        }
        try (var laterRun = harness(writers)) {
            laterRun.open();
            laterRun.processElement(committed(set, 1));
            checkpoint(laterRun, 1, Outcome.COMMITTED);
        }
        try (var restored = harness(writers)) {
            restored.setRestoredCheckpointId(1);
            assertThatThrownBy(() -> restored.initializeState(earlier))
                    .hasStackTraceContaining("restored checkpoint 1 is older than what this job has already delivered: "
                            + "it belongs to run run-")
                    .hasStackTraceContaining("has delivered since")
                    .hasStackTraceContaining("sink.raw-pack.allow-older-restore");
        }
    }

    @Test
    void withExactSharingTheAccumulatorHoldsTheIndexSizeOfTheLatestCommittedSet() throws Exception {
        WriterHarness writers =
                new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB, ExactSharing.WITHIN_SUBTASK, 100);
        BlobSetCommittable first = committedSet(writers).withSharingIndexEntries(5);
        BlobSetCommittable second = committedSet(writers).withSharingIndexEntries(8);
        BlobSetCommittable restoredFromVersion1 =
                committedSet(writers).withSharingIndexEntries(BlobSetCommittable.NO_SHARING_INDEX);
        try (var harness = harness(writers)) {
            harness.open();
            harness.processElement(committed(first, 1));
            harness.processElement(committed(second, 1));
            harness.processElement(committed(restoredFromVersion1, 2));

            assertThat(accumulators(harness))
                    .extractingByKey(RawPackSink.SHARING_INDEX_ENTRIES_ACCUMULATOR)
                    .extracting(Accumulator::getLocalValue)
                    .as("the latest set's index size; a committable read from version 1 bytes knows none")
                    .isEqualTo(8L);
        }
    }

    @Test
    void withoutExactSharingThereIsNoIndexAccumulator() throws Exception {
        WriterHarness writers = new WriterHarness(base, RollPolicy.ON_CHECKPOINT, 8 * MIB);
        BlobSetCommittable set = committedSet(writers);
        try (var harness = harness(writers)) {
            harness.open();
            harness.processElement(committed(set, 1));

            assertThat(accumulators(harness)).doesNotContainKey(RawPackSink.SHARING_INDEX_ENTRIES_ACCUMULATOR);
        }
    }

    /** The one lineage directory under {@code _delivered}. */
    private Path lineageDirectory() throws IOException {
        try (var lineages = Files.list(base.resolve(DeliveryMarkers.DIRECTORY))) {
            return lineages.collect(java.util.stream.Collectors.toList()).stream()
                    .reduce((a, b) -> {
                        throw new AssertionError("more than one lineage: " + a + ", " + b);
                    })
                    .orElseThrow();
        }
    }

    /** The names of the delivery markers under the base, whatever run they belong to. */
    private List<String> markerFiles() throws IOException {
        try (var files = Files.walk(base.resolve(DeliveryMarkers.DIRECTORY))) {
            return files.filter(Files::isRegularFile)
                    .map(p -> p.getFileName().toString())
                    .toList();
        }
    }

    private static Map<String, Accumulator<?, ?>> accumulators(OneInputStreamOperatorTestHarness<?, ?> harness) {
        return harness.getEnvironment().getAccumulatorRegistry().getUserMap();
    }

    private OneInputStreamOperatorTestHarness<CommittableMessage<BlobSetCommittable>, DescriptorRow> harness(
            WriterHarness writers) throws Exception {
        return new OneInputStreamOperatorTestHarness<>(
                new CommittedDescriptorEmitter(writers.settings, new ScriptedCheck(testId), false));
    }

    /** Checkpoint {@code id}: the snapshot, then its notification, the check answering {@code outcome}. */
    private void checkpoint(OneInputStreamOperatorTestHarness<?, ?> harness, long id, Outcome outcome)
            throws Exception {
        harness.snapshot(id, id);
        outcome(id, outcome);
        harness.notifyOfCompletedCheckpoint(id);
    }

    /** Puts {@code action} in the task's mailbox, where a waiting {@code endInput} runs it. */
    private static void mail(
            OneInputStreamOperatorTestHarness<?, ?> harness, String description, ThrowingRunnable<Exception> action)
            throws Exception {
        harness.getTaskMailbox().put(new Mail(action, TaskMailbox.MAX_PRIORITY, description));
    }

    private void outcome(long epoch, Outcome outcome) {
        OUTCOMES.computeIfAbsent(testId, id -> new ConcurrentHashMap<>()).put(epoch, outcome);
    }

    private static BlobSetCommittable committedSet(WriterHarness writers) throws IOException {
        try (RawPackSinkWriter writer = writers.writer()) {
            write(writer, LongStream.range(0, 20).toArray());
            BlobSetCommittable set = writer.prepareCommit().iterator().next();
            commit(List.of(set));
            return set;
        }
    }

    private static StreamRecord<CommittableMessage<BlobSetCommittable>> committed(
            BlobSetCommittable set, long checkpoint) {
        return new StreamRecord<>(new CommittableWithLineage<>(set, checkpoint, 0));
    }

    private static List<Object> rows(OneInputStreamOperatorTestHarness<?, DescriptorRow> harness) {
        return List.copyOf(harness.getOutput());
    }

    /** Answers from {@link #OUTCOMES}; an epoch without an outcome is an error, as an unreachable broker is. */
    private record ScriptedCheck(String testId) implements DescriptorDeliveryCheck {

        @Override
        public String lineage() {
            return "scripted-" + testId;
        }

        @Override
        public Session open(org.apache.flink.core.fs.Path directory) {
            return new Session() {
                @Override
                public void checkDestination() throws IOException {
                    if (DESTINATION_CHANGED.contains(testId)) {
                        throw new IOException("scripted: the destination changed");
                    }
                }

                @Override
                public Outcome outcome(Epoch epoch) throws IOException {
                    ASKED.computeIfAbsent(testId, id -> new CopyOnWriteArrayList<>())
                            .add(new Asked(
                                    epoch.subtask(), epoch.epoch(), epoch.firstRowSentAtMillis(), epoch.sampleRow()));
                    Outcome outcome = OUTCOMES.getOrDefault(testId, Map.of()).get(epoch.epoch());
                    if (outcome == null) {
                        throw new IOException("no outcome scripted for epoch " + epoch.epoch());
                    }
                    return outcome;
                }

                @Override
                public void close() {}
            };
        }
    }
}
