package io.blobingest.kafka.internal;

import java.util.HashSet;
import java.util.Set;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * A bounded source's enumerator that tells every reader to end its input once all readers have
 * read their splits ({@link JointEndReader}, which says why). Everything else is its wrapped
 * enumerator's.
 *
 * <p>It waits for the readers that have registered, not for the source's parallelism: a subtask
 * that had finished before the checkpoint a job is restored from is not run again and never
 * registers, and must not hold the others for ever. A reader that registers after the others were
 * told (a slow start) ends alone when it has read its splits; a subtask that restarts registers
 * again and is taken as not ended until it reports. Only when the input ends depends on this,
 * never what is read. Which readers have ended is not checkpointed: a restored job's readers
 * report again, those whose splits were read at once.
 */
final class JointEndEnumerator<SplitT extends SourceSplit, CheckpointT>
        extends ForwardingSplitEnumerator<SplitT, CheckpointT> {

    private final SplitEnumeratorContext<SplitT> context;
    private final Set<Integer> endedReaders = new HashSet<>();

    JointEndEnumerator(SplitEnumerator<SplitT, CheckpointT> enumerator, SplitEnumeratorContext<SplitT> context) {
        super(enumerator);
        this.context = context;
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent event) {
        if (!(event instanceof JointEndEvents.InputEnded)) {
            enumerator.handleSourceEvent(subtaskId, event);
            return;
        }
        endedReaders.add(subtaskId);
        Set<Integer> registered = context.registeredReaders().keySet();
        if (endedReaders.containsAll(registered)) {
            for (int reader : registered) {
                context.sendEventToSourceReader(reader, new JointEndEvents.EveryInputEnded());
            }
        }
    }

    @Override
    public void addReader(int subtaskId) {
        endedReaders.remove(subtaskId);
        enumerator.addReader(subtaskId);
    }
}
