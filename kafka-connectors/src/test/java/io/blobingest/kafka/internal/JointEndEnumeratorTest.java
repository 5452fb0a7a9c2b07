package io.blobingest.kafka.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.mocks.MockSourceSplit;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumerator;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JointEndEnumeratorTest {

    private static final int READERS = 3;

    private final MockSplitEnumeratorContext<MockSourceSplit> context = new MockSplitEnumeratorContext<>(READERS);
    private final MockSplitEnumerator splits = new MockSplitEnumerator(0, context);
    private final JointEndEnumerator<MockSourceSplit, ?> enumerator = new JointEndEnumerator<>(splits, context);

    @AfterEach
    void closeContext() throws Exception {
        context.close();
    }

    @Test
    void everyReaderIsToldToEndOnceTheLastHasReadItsSplits() throws Exception {
        registerReaders();

        enumerator.handleSourceEvent(2, new JointEndEvents.InputEnded());
        enumerator.handleSourceEvent(0, new JointEndEvents.InputEnded());
        assertThat(context.getSentSourceEvent()).isEmpty();

        enumerator.handleSourceEvent(1, new JointEndEvents.InputEnded());

        assertThat(context.getSentSourceEvent())
                .containsOnlyKeys(0, 1, 2)
                .allSatisfy(
                        (reader, events) -> assertThat(events).containsExactly(new JointEndEvents.EveryInputEnded()));
        assertThat(splits.getHandledSourceEvent()).isEmpty();
    }

    @Test
    void aReaderThatRegistersAgainCountsAsNotEndedUntilItReportsAgain() throws Exception {
        registerReaders();
        enumerator.handleSourceEvent(0, new JointEndEvents.InputEnded());
        enumerator.handleSourceEvent(1, new JointEndEvents.InputEnded());

        enumerator.addReader(1);
        enumerator.handleSourceEvent(2, new JointEndEvents.InputEnded());
        assertThat(context.getSentSourceEvent()).isEmpty();

        enumerator.handleSourceEvent(1, new JointEndEvents.InputEnded());
        assertThat(context.getSentSourceEvent()).containsOnlyKeys(0, 1, 2);
    }

    @Test
    void aSubtaskThatNeverRegistersIsNotWaitedFor() throws Exception {
        // Restored from a checkpoint taken after subtask 1 had finished: Flink does not run it again.
        for (int reader : new int[] {0, 2}) {
            context.registerReader(new ReaderInfo(reader, "localhost"));
            enumerator.addReader(reader);
        }

        enumerator.handleSourceEvent(0, new JointEndEvents.InputEnded());
        enumerator.handleSourceEvent(2, new JointEndEvents.InputEnded());

        assertThat(context.getSentSourceEvent()).containsOnlyKeys(0, 2);
    }

    @Test
    void otherSourceEventsReachTheWrappedEnumerator() throws Exception {
        SourceEvent other = new SourceEvent() {};

        enumerator.handleSourceEvent(0, other);

        assertThat(splits.getHandledSourceEvent()).containsExactly(other);
        assertThat(context.getSentSourceEvent()).isEmpty();
    }

    private void registerReaders() {
        for (int reader = 0; reader < READERS; reader++) {
            context.registerReader(new ReaderInfo(reader, "localhost"));
            enumerator.addReader(reader);
        }
    }
}
