package io.blobingest.kafka.internal;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.InputStatus;

/** A source reader that hands every call to another; subclasses override what they change. */
abstract class ForwardingSourceReader<T, SplitT extends SourceSplit> implements SourceReader<T, SplitT> {

    protected final SourceReader<T, SplitT> reader;

    ForwardingSourceReader(SourceReader<T, SplitT> reader) {
        this.reader = reader;
    }

    @Override
    public void start() {
        reader.start();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
        return reader.pollNext(output);
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return reader.isAvailable();
    }

    @Override
    public List<SplitT> snapshotState(long checkpointId) {
        return reader.snapshotState(checkpointId);
    }

    @Override
    public void addSplits(List<SplitT> splits) {
        reader.addSplits(splits);
    }

    @Override
    public void notifyNoMoreSplits() {
        reader.notifyNoMoreSplits();
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        reader.handleSourceEvents(event);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        reader.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        reader.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void pauseOrResumeSplits(Collection<String> splitsToPause, Collection<String> splitsToResume) {
        reader.pauseOrResumeSplits(splitsToPause, splitsToResume);
    }

    @Override
    public void close() throws Exception {
        reader.close();
    }
}
