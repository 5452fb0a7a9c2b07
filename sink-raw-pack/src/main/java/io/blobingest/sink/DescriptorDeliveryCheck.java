package io.blobingest.sink;

import io.blobingest.objectlayer.DescriptorRow;
import java.io.IOException;
import java.io.Serializable;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.core.fs.Path;

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
 * A check whose answer needs longer work (reading delivered data) does it in the background and
 * answers {@link Outcome#OPEN} until it is done.
 */
@PublicEvolving
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

    /**
     * A connection for one subtask, closed with the emitter.
     *
     * @param directory this lineage's directory beside its delivery markers, where the check keeps
     *     what it must remember across restores and restarts (see {@link Session#checkDestination})
     */
    Session open(Path directory) throws IOException;

    /** One epoch, as the emitter that sent it knows it. */
    interface Epoch {

        /** The subtask that sent the epoch's rows (the emitter's index at that time). */
        int subtask();

        /** The checkpoint that closes the epoch. */
        long epoch();

        /**
         * The emitter's wall-clock time (milliseconds since 1970) just before it sent the epoch's first
         * row; 0 when it is not known (an epoch restored from an older state).
         */
        long firstRowSentAtMillis();

        /**
         * One of the rows the epoch held, read again from its committed manifest, preferring one
         * that names its blob set ({@code blob.set}); empty when the epoch held no rows. For a check
         * that must look at the delivered data to tell.
         */
        Optional<DescriptorRow> sampleRow() throws IOException;
    }

    /** The calls of one subtask. */
    interface Session extends AutoCloseable {

        /**
         * Fails when the descriptor sink's destination is no longer the one this lineage first
         * delivered to (Kafka: the descriptor topic deleted, perhaps created again under its name):
         * the descriptors committed there are gone with it, and the rest must not go into another
         * as if it held them all. The emitter calls it when it opens, before it sends an epoch's first
         * row, and before the barrier of each checkpoint that closes an epoch holding rows, so that
         * every row of a checkpoint's transaction was sent between two checks that found the
         * destination unchanged. Within a deadline.
         *
         * @throws IOException when the destination changed, saying so in one line, or when it cannot be
         *     told
         */
        void checkDestination() throws IOException;

        /**
         * Before {@code row} is sent: a destination that this row is the first to reach (Kafka: an
         * input topic's own descriptor topic) is checked, and from then on is one of those that
         * {@link #checkDestination} checks. Called for every row, so one whose destination is already
         * known must return at once.
         */
        default void checkDestinationOf(DescriptorRow row) throws IOException {}

        /**
         * @throws IOException when the outcome cannot be learned (unreachable, unknown transaction,
         *     deadline passed): the caller fails rather than guess
         */
        Outcome outcome(Epoch epoch) throws IOException;

        @Override
        void close() throws IOException;
    }
}
