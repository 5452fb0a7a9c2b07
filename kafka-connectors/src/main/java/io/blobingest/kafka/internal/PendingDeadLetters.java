package io.blobingest.kafka.internal;

import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * The dead letters one subtask sent in one epoch (one dead-letter transaction), kept until the
 * epoch's transaction is known to be committed, or, if it was aborted, until they are sent again.
 *
 * @param subtask the subtask that sent them, which names the dead-letter sink's transaction
 * @param epoch the checkpoint that closes the epoch and commits its transaction
 * @param notStampedBeforeMillis no dead letter of the epoch carries an earlier record timestamp
 *     (milliseconds since 1970; a dead letter carries its input record's timestamp); 0 or less when
 *     not known
 * @param deadLetters what was sent, in order
 */
@Internal
public record PendingDeadLetters(
        int subtask, long epoch, long notStampedBeforeMillis, List<DeadLetterRef> deadLetters) {

    public PendingDeadLetters {
        deadLetters = List.copyOf(deadLetters);
        if (deadLetters.isEmpty()) {
            throw new IllegalArgumentException("a pending dead-letter epoch holds at least one dead letter");
        }
    }

    @Override
    public String toString() {
        return "subtask " + subtask + " epoch " + epoch + " (" + deadLetters.size() + " dead letters, first "
                + deadLetters.get(0) + ")";
    }
}
