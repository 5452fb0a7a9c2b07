package io.blobingest.sink.internal.delivery;

import io.blobingest.sink.internal.state.PendingDeliverySerializer;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * The units of rows one subtask sent to the descriptor sink in one epoch, kept until the epoch's
 * transaction is known to be committed (or, if it was aborted, until they are sent again). A unit
 * is whatever its sender can read and send again: a committed blob set ({@link EmittedBlobSet}),
 * a run of manifest rows.
 *
 * @param subtask the subtask that sent them, which names the descriptor sink's transaction
 * @param epoch the checkpoint that closes the epoch and commits its transaction
 * @param firstRowSentAtMillis the sender's wall-clock time just before it sent the epoch's first row;
 *     0 when not known (restored from {@link PendingDeliverySerializer#VERSION_1} bytes)
 */
@Internal
public record PendingDelivery<U>(int subtask, long epoch, long firstRowSentAtMillis, List<U> units) {

    public PendingDelivery {
        units = List.copyOf(units);
        if (units.isEmpty()) {
            throw new IllegalArgumentException("a pending delivery holds at least one unit of rows");
        }
    }
}
