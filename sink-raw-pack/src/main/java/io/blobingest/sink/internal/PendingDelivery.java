package io.blobingest.sink.internal;

import java.util.List;

/**
 * The blob sets one emitter subtask sent to the descriptor sink in one epoch, kept until the
 * epoch's transaction is known to be committed (or, if it was aborted, until they are sent again).
 *
 * @param subtask the emitter subtask that sent them, which names the descriptor sink's transaction
 * @param epoch the checkpoint that closes the epoch and commits its transaction
 * @param firstRowSentAtMillis the emitter's wall-clock time just before it sent the epoch's first row;
 *     0 when not known (restored from {@link PendingDeliverySerializer#VERSION_1} bytes)
 */
public record PendingDelivery(int subtask, long epoch, long firstRowSentAtMillis, List<EmittedBlobSet> sets) {

    public PendingDelivery {
        sets = List.copyOf(sets);
        if (sets.isEmpty()) {
            throw new IllegalArgumentException("a pending delivery holds at least one blob set");
        }
    }

    /** The sets' names, for messages. */
    public List<String> blobSetNames() {
        return sets.stream().map(EmittedBlobSet::blobSet).toList();
    }
}
