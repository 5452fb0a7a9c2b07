package io.blobingest.sink;

import java.io.IOException;
import java.io.Serializable;

/**
 * Tells whether the descriptor sink committed what it received in one epoch: the rows a subtask
 * sent between two checkpoints, which a transactional sink commits with the checkpoint that closes
 * the epoch. The Raw Pack sink asks it about every epoch into which it emitted committed blob sets,
 * once that epoch's checkpoint is complete, and re-emits the sets of an epoch whose transaction was
 * aborted (for example by the broker, past its transaction timeout): without it, such a loss would
 * be a WARN in the descriptor sink's log.
 *
 * <p>Epoch {@code e} of subtask {@code s} holds the rows sent after checkpoint {@code e - 1} was
 * taken (after the restored checkpoint {@code e - 1}, or from the start when {@code e == 1}) and
 * up to checkpoint {@code e}; Flink's committer commits it on the notification of checkpoint
 * {@code e} or later, or after a restore from a checkpoint {@code >= e}.
 *
 * <p>Opened once per emitter subtask, on its task thread; every call must end within a deadline.
 */
public interface DescriptorDeliveryCheck extends Serializable {

    /** What became of one epoch's transaction. */
    enum Outcome {
        /** Committed (or decided to commit): its rows are delivered. */
        COMMITTED,
        /** Aborted or fenced: none of its rows will ever be visible. */
        ABORTED,
        /** Not decided yet: ask again at a later checkpoint. */
        OPEN
    }

    /**
     * The descriptor sink's name for this job: the same across all its restores, different from any
     * other job's that may write under the same base (Kafka: the transactional id prefix). The sink
     * keeps its delivery markers under it (see {@code docs/exactly-once.md}).
     */
    String lineage();

    /** A connection for one subtask, closed with the emitter. */
    Session open() throws IOException;

    /** The calls of one subtask. */
    interface Session extends AutoCloseable {

        /**
         * @param subtask the subtask that sent the epoch's rows (the emitter's index at that time)
         * @param epoch the checkpoint that closes the epoch
         * @throws IOException when the outcome cannot be learned (unreachable, unknown transaction,
         *     deadline passed): the caller fails rather than guess
         */
        Outcome outcome(int subtask, long epoch) throws IOException;

        @Override
        void close() throws IOException;
    }
}
