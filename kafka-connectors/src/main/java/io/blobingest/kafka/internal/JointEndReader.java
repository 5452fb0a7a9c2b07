package io.blobingest.kafka.internal;

import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.InputStatus;

/**
 * A bounded source's reader that, once it has read all its splits, holds back its end of input
 * until every reader of the source has read all of its own ({@link JointEndEnumerator}), so that
 * the readers of a bounded run end their input within moments of each other.
 *
 * <p>Why: the Raw Pack sink holds each subtask's end of input for checkpoints taken after it
 * ({@code DescriptorDrainOperator}), and Flink 2.2 triggers a checkpoint at once when every task of
 * the job has reached the end of its data ({@code SchedulerBase.notifyEndOfData}). Subtasks whose
 * input ended between different checkpoints finished one checkpoint apart: the early one had already
 * taken its final checkpoint and closed the moment the last one's end reached the tasks downstream,
 * which is also when Flink triggered that checkpoint; the closing task declined it ("task is
 * closing") and the job waited for the next periodic checkpoint, up to one interval more for every
 * bounded run. Ended together, every subtask's holds count the same checkpoints and every task
 * takes part in that last checkpoint.
 *
 * <p>While it waits the reader is idle: checkpoints go on, and its state is its wrapped reader's
 * (its splits are read). A reader restored from a checkpoint taken while it waited reads nothing
 * and reports again.
 */
final class JointEndReader<T, SplitT extends SourceSplit> extends ForwardingSourceReader<T, SplitT> {

    private final SourceReaderContext context;
    private final CompletableFuture<Void> everyInputEnded = new CompletableFuture<>();
    private boolean inputEnded;

    JointEndReader(SourceReader<T, SplitT> reader, SourceReaderContext context) {
        super(reader);
        this.context = context;
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
        if (!inputEnded) {
            InputStatus status = reader.pollNext(output);
            if (status != InputStatus.END_OF_INPUT) {
                return status;
            }
            inputEnded = true;
            context.sendSourceEventToCoordinator(new JointEndEvents.InputEnded());
        }
        return everyInputEnded.isDone() ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return inputEnded ? everyInputEnded : reader.isAvailable();
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (event instanceof JointEndEvents.EveryInputEnded) {
            everyInputEnded.complete(null);
        } else {
            reader.handleSourceEvents(event);
        }
    }
}
