package io.blobingest.kafka.internal;

import java.io.IOException;
import java.util.List;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;

/** A split enumerator that hands every call to another; subclasses override what they change. */
abstract class ForwardingSplitEnumerator<SplitT extends SourceSplit, CheckpointT>
        implements SplitEnumerator<SplitT, CheckpointT> {

    protected final SplitEnumerator<SplitT, CheckpointT> enumerator;

    ForwardingSplitEnumerator(SplitEnumerator<SplitT, CheckpointT> enumerator) {
        this.enumerator = enumerator;
    }

    @Override
    public void start() {
        enumerator.start();
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        enumerator.handleSplitRequest(subtaskId, requesterHostname);
    }

    @Override
    public void addSplitsBack(List<SplitT> splits, int subtaskId) {
        enumerator.addSplitsBack(splits, subtaskId);
    }

    @Override
    public void addReader(int subtaskId) {
        enumerator.addReader(subtaskId);
    }

    @Override
    public CheckpointT snapshotState(long checkpointId) throws Exception {
        return enumerator.snapshotState(checkpointId);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        enumerator.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent event) {
        enumerator.handleSourceEvent(subtaskId, event);
    }

    @Override
    public void close() throws IOException {
        enumerator.close();
    }
}
