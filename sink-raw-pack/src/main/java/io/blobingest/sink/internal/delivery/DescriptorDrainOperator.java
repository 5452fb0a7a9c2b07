package io.blobingest.sink.internal.delivery;

import io.blobingest.sink.internal.sharing.ContentRouting;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.runtime.checkpoint.CheckpointOptions;
import org.apache.flink.runtime.checkpoint.SavepointType;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.runtime.operators.coordination.OperatorEventGateway;
import org.apache.flink.runtime.operators.coordination.OperatorEventHandler;
import org.apache.flink.runtime.state.CheckpointStreamFactory;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.CoordinatedOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.OperatorSnapshotFutures;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.mailbox.TaskMailbox;

/**
 * Holds back the end of input in front of the sink writer until the last blob set is committed
 * and its descriptors are in the descriptor sink: one checkpoint completed after the input ended,
 * whose notification commits the last blob set and emits its descriptors to the descriptor sink.
 * The emitter then holds the end of input until the descriptor transaction holding them is
 * known to be committed ({@link CommittedDescriptorEmitter#endInput}); without a delivery check,
 * the job's final checkpoint commits it, as any sink's last transaction.
 *
 * <p>Holding the end of input means serving the task's mailbox, where a task whose input is a
 * source chained in front of it gets its checkpoint triggers. A task that reads its input from the
 * network gets the barriers in that input, which it does not read while it holds the end back, so
 * an emitter behind a network hop cannot wait there. With {@code within-job} exact sharing ({@link
 * ContentRouting}) this operator therefore sits in front of the routing, in the sources' task,
 * and is coordinated ({@link #beforeRouting}): it holds the end of input until its {@link
 * DrainCoordinator} says that every emitter behind the hop has committed the last blob sets and
 * knows their descriptors to be committed, a re-sent aborted transaction included, however many
 * checkpoints that takes. The writers' task gets its end of input only then, with nothing left to
 * deliver.
 *
 * <p>Why: Flink 2.2 emits the committables of a job's <em>final</em> checkpoint to a post-commit
 * topology after that topology's input has ended (FLINK-38614), when a transactional descriptor
 * sink can no longer commit them. Without this operator a bounded run would commit its last blob
 * set but never deliver its descriptors. With it, the final
 * checkpoint finds the writer empty, so nothing is emitted to the post-commit topology after its
 * input ended.
 *
 * <p>Assumes the writer, committer, descriptor emitter and descriptor sink are chained in one task
 * (they are: same parallelism, forward edges), so that the descriptors emitted on the
 * checkpoint's completion are in the descriptor sink, in the same mailbox action, before the end of
 * input reaches it and before the final checkpoint's barrier.
 * Forwards {@code MAX_WATERMARK} like any watermark; the writer takes it as the end of input and
 * closes its blob set at the next checkpoint whatever the roll policy.
 *
 * <p>A stop with drain ends the input too, but its synchronous savepoint is the last checkpoint
 * Flink takes, one too few to deliver the descriptors of the set it seals: that savepoint is
 * refused ({@link #DRAIN_REFUSED}).
 */
@Internal
public final class DescriptorDrainOperator<T> extends AbstractStreamOperator<T>
        implements OneInputStreamOperator<T, T>, BoundedOneInput, OperatorEventHandler {

    private static final long serialVersionUID = 1L;

    /** Why a stop with drain is refused, and what to do instead. */
    public static final String DRAIN_REFUSED = "stop with --drain cannot deliver the descriptors of the last blob"
            + " set: they commit one checkpoint after the set, and Flink takes no checkpoint after a drain's"
            + " synchronous savepoint (FLINK-38614); the job fails over to its last checkpoint instead. Stop it"
            + " without --drain (its savepoint holds the pending sets; a job resumed from it delivers them, and"
            + " with --bounded finishes)";

    private final transient MailboxExecutor mailbox;
    /** Completed checkpoints taken after the end of input to wait for. */
    private final int checkpointsAfterEnd;
    /** Where to report the end of input and whence the release comes; null: not coordinated. */
    private final transient OperatorEventGateway coordinator;

    private boolean inputEnded;
    /** The first checkpoint taken after the end of input; -1 before it is taken. */
    private long firstAfterEnd = -1;

    private int completedAfterEnd;
    private boolean released;

    private DescriptorDrainOperator(
            StreamOperatorParameters<T> parameters,
            MailboxExecutor mailbox,
            int checkpointsAfterEnd,
            OperatorEventGateway coordinator) {
        super(parameters);
        this.mailbox = mailbox;
        this.checkpointsAfterEnd = checkpointsAfterEnd;
        this.coordinator = coordinator;
    }

    @Override
    public void processElement(StreamRecord<T> element) {
        output.collect(element);
    }

    @Override
    public void endInput() throws Exception {
        inputEnded = true;
        while (!drained()) {
            mailbox.yield();
        }
    }

    private boolean drained() {
        return completedAfterEnd >= checkpointsAfterEnd && (coordinator == null || released);
    }

    @Override
    public void handleOperatorEvent(OperatorEvent event) {
        if (!(event instanceof DrainCoordinator.Release)) {
            throw new IllegalArgumentException("unexpected operator event " + event);
        }
        released = true;
    }

    /**
     * Refuses the synchronous savepoint of a stop with drain, which would lose descriptors: Flink
     * takes it as the job's last checkpoint, after the end of input, so it seals and commits the last
     * blob set, and the descriptors its notification emits land in a transaction no checkpoint ever
     * commits. Failing the savepoint fails the stop; the job fails over to its last checkpoint and
     * goes on, nothing lost. A stop without drain never ends the input and is not affected.
     */
    @Override
    public OperatorSnapshotFutures snapshotState(
            long checkpointId, long timestamp, CheckpointOptions options, CheckpointStreamFactory storageLocation)
            throws Exception {
        if (inputEnded && options.getCheckpointType() instanceof SavepointType savepoint && savepoint.shouldDrain()) {
            throw new IllegalStateException(DRAIN_REFUSED + " (savepoint " + checkpointId + ")");
        }
        return super.snapshotState(checkpointId, timestamp, options, storageLocation);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (inputEnded && firstAfterEnd < 0) {
            firstAfterEnd = context.getCheckpointId();
            if (coordinator != null) {
                coordinator.sendEventToCoordinator(new DrainCoordinator.InputEnded(firstAfterEnd));
            }
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        // A later checkpoint completing subsumes an earlier one that was aborted.
        if (firstAfterEnd >= 0 && checkpointId >= firstAfterEnd) {
            completedAfterEnd++;
        }
    }

    /** In the writer's task, its input a source chained in front: one completed checkpoint after the end. */
    public static <T> Factory<T> inWriterTask() {
        return new Factory<>(1);
    }

    /**
     * In the sources' task, in front of a network hop to the writers: at least {@code checkpoints}
     * completed checkpoints taken after the end of input, and the release of the coordinator that
     * meets the emitters' under {@code signalKey} ({@link DrainCoordinator}).
     */
    public static <T> Factory<T> beforeRouting(int checkpoints, String signalKey) {
        return new CoordinatedFactory<>(checkpoints, signalKey);
    }

    /** Creates the operator with the task's mailbox, which {@link #endInput} keeps serving. */
    public static class Factory<T> extends AbstractStreamOperatorFactory<T>
            implements OneInputStreamOperatorFactory<T, T> {

        private static final long serialVersionUID = 1L;

        private final int checkpointsAfterEnd;

        private Factory(int checkpointsAfterEnd) {
            this.checkpointsAfterEnd = checkpointsAfterEnd;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <O extends StreamOperator<T>> O createStreamOperator(StreamOperatorParameters<T> parameters) {
            // The lowest priority: endInput must keep serving the task's checkpoint triggers and
            // notifications, not only mails of operators further down the chain.
            MailboxExecutor mailbox =
                    parameters.getContainingTask().getMailboxExecutorFactory().createExecutor(TaskMailbox.MIN_PRIORITY);
            return (O) new DescriptorDrainOperator<>(parameters, mailbox, checkpointsAfterEnd, coordinator(parameters));
        }

        /** The gateway to this operator's coordinator; null: it has none. */
        OperatorEventGateway coordinator(StreamOperatorParameters<T> parameters) {
            return null;
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public Class<? extends StreamOperator<?>> getStreamOperatorClass(ClassLoader classLoader) {
            return (Class) DescriptorDrainOperator.class;
        }
    }

    /** Creates the operator with its {@link DrainCoordinator}, whose release it waits for. */
    private static final class CoordinatedFactory<T> extends Factory<T> implements CoordinatedOperatorFactory<T> {

        private static final long serialVersionUID = 1L;

        private final String signalKey;

        private CoordinatedFactory(int checkpointsAfterEnd, String signalKey) {
            super(checkpointsAfterEnd);
            this.signalKey = signalKey;
        }

        @Override
        public <O extends StreamOperator<T>> O createStreamOperator(StreamOperatorParameters<T> parameters) {
            O operator = super.createStreamOperator(parameters);
            parameters
                    .getOperatorEventDispatcher()
                    .registerEventHandler(
                            parameters.getStreamConfig().getOperatorID(), (OperatorEventHandler) operator);
            return operator;
        }

        @Override
        OperatorEventGateway coordinator(StreamOperatorParameters<T> parameters) {
            return parameters
                    .getOperatorEventDispatcher()
                    .getOperatorEventGateway(parameters.getStreamConfig().getOperatorID());
        }

        @Override
        public OperatorCoordinator.Provider getCoordinatorProvider(String operatorName, OperatorID operatorId) {
            return new DrainCoordinator.Provider(operatorId, signalKey, DrainCoordinator.Role.DRAIN);
        }
    }
}
