package io.blobingest.kafka.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.mocks.MockSourceReader;
import org.apache.flink.api.connector.source.mocks.MockSourceSplit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.util.UserCodeClassLoader;
import org.junit.jupiter.api.Test;

class JointEndReaderTest {

    private final RecordingContext context = new RecordingContext();
    private final MockSourceReader splits =
            new MockSourceReader(MockSourceReader.WaitingForSplits.WAIT_UNTIL_ALL_SPLITS_ASSIGNED, true);
    private final JointEndReader<Integer, MockSourceSplit> reader = new JointEndReader<>(splits, context);
    private final NoRecordsOutput output = new NoRecordsOutput();

    @Test
    void aReaderThatHasReadItsSplitsHoldsItsEndOfInputUntilEveryReaderHasReadTheirs() throws Exception {
        reader.start();
        assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(context.sentToCoordinator).isEmpty();

        splits.notifyNoMoreSplits();
        assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(context.sentToCoordinator).containsExactly(new JointEndEvents.InputEnded());
        CompletableFuture<Void> available = reader.isAvailable();
        assertThat(available).isNotDone();
        assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(context.sentToCoordinator).as("reported once").hasSize(1);

        reader.handleSourceEvents(new JointEndEvents.EveryInputEnded());

        assertThat(available).isDone();
        assertThat(reader.pollNext(output)).isEqualTo(InputStatus.END_OF_INPUT);
        assertThat(splits.getReceivedSourceEvents()).isEmpty();
    }

    @Test
    void otherSourceEventsReachTheWrappedReader() {
        SourceEvent other = new SourceEvent() {};

        reader.handleSourceEvents(other);

        assertThat(splits.getReceivedSourceEvents()).containsExactly(other);
    }

    /** The readers here have no splits: they emit nothing, and only mark themselves idle. */
    private static final class NoRecordsOutput implements ReaderOutput<Integer> {

        @Override
        public void collect(Integer record) {
            throw new AssertionError("a reader without splits emitted " + record);
        }

        @Override
        public void collect(Integer record, long timestamp) {
            collect(record);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}

        @Override
        public SourceOutput<Integer> createOutputForSplit(String splitId) {
            throw new AssertionError("a reader without splits made an output for split " + splitId);
        }

        @Override
        public void releaseOutputForSplit(String splitId) {}
    }

    /** Records what the reader sends to its enumerator; nothing else is used. */
    private static final class RecordingContext implements SourceReaderContext {

        final List<SourceEvent> sentToCoordinator = new ArrayList<>();

        @Override
        public void sendSourceEventToCoordinator(SourceEvent sourceEvent) {
            sentToCoordinator.add(sourceEvent);
        }

        @Override
        public SourceReaderMetricGroup metricGroup() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Configuration getConfiguration() {
            throw new UnsupportedOperationException();
        }

        @Override
        public String getLocalHostName() {
            throw new UnsupportedOperationException();
        }

        @Override
        public int getIndexOfSubtask() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void sendSplitRequest() {
            throw new UnsupportedOperationException();
        }

        @Override
        public UserCodeClassLoader getUserCodeClassLoader() {
            throw new UnsupportedOperationException();
        }
    }
}
