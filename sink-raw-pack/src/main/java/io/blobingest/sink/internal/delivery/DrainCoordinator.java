package io.blobingest.sink.internal.delivery;

import io.blobingest.sink.internal.sharing.ContentRouting;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;

/**
 * Tells the {@link DescriptorDrainOperator}s in front of a network hop to the writers ({@link
 * ContentRouting}) when they may let the end of input pass: once every {@link
 * CommittedDescriptorEmitter} behind the hop has committed the blob sets of the checkpoints the
 * drains took after their input ended, and knows every descriptor it sent for them to be
 * committed. Until then the drains hold the end of input in the sources' task, where checkpoints
 * go on, so that an aborted descriptor transaction is sent again and committed by a later
 * checkpoint, however many that takes.
 *
 * <p>Two of these run in the JobManager, one per operator ({@link Role}); they meet in the job's
 * {@link org.apache.flink.runtime.operators.coordination.CoordinatorStore} under a key the sink
 * draws when it is built ({@link DrainSignal}). Flink calls both on the JobManager's main thread.
 *
 * <p>Nothing of this is checkpointed: a restored drain or emitter reports again. A reset forgets
 * what the reset subtasks said; a drain released by an attempt that then failed is held again by
 * the next attempt until its own emitters report.
 */
@Internal
public final class DrainCoordinator implements OperatorCoordinator {

    /** Which operator a coordinator serves. */
    public enum Role {
        /** The drains in the sources' task, which wait for {@link Release}. */
        DRAIN,
        /** The emitters behind the hop, which report {@link Settled}. */
        EMITTER
    }

    /** From a drain: the first checkpoint it took after its input ended. */
    record InputEnded(long checkpointId) implements OperatorEvent {}

    /**
     * From an emitter: the committer has committed the blob sets of every checkpoint up to {@code
     * committedThrough} and handed them over, and every descriptor row sent so far is known to be
     * committed.
     */
    record Settled(long committedThrough) implements OperatorEvent {}

    /** To a drain: the end of input may pass. */
    record Release() implements OperatorEvent {}

    private final Context context;
    private final String signalKey;
    private final Role role;
    private final SubtaskGateway[] gateways;
    private DrainSignal signal;

    private DrainCoordinator(Context context, String signalKey, Role role) {
        this.context = context;
        this.signalKey = signalKey;
        this.role = role;
        this.gateways = new SubtaskGateway[context.currentParallelism()];
    }

    @Override
    public void start() {
        signal = (DrainSignal) context.getCoordinatorStore()
                .compute(signalKey, (key, existing) -> existing != null ? existing : new DrainSignal());
        signal.register(role, context.currentParallelism(), role == Role.DRAIN ? this::releaseIfDrained : null);
    }

    @Override
    public void handleEventFromOperator(int subtask, int attemptNumber, OperatorEvent event) {
        if (event instanceof InputEnded ended && role == Role.DRAIN) {
            signal.inputEnded(subtask, ended.checkpointId());
        } else if (event instanceof Settled settled && role == Role.EMITTER) {
            signal.settled(subtask, settled.committedThrough());
        } else {
            throw new IllegalArgumentException("unexpected event " + event + " for the " + role + " coordinator");
        }
    }

    private void releaseIfDrained() {
        for (SubtaskGateway gateway : gateways) {
            if (gateway != null) {
                gateway.sendEvent(new Release());
            }
        }
    }

    @Override
    public void executionAttemptReady(int subtask, int attemptNumber, SubtaskGateway gateway) {
        gateways[subtask] = gateway;
        if (role == Role.DRAIN && signal.released()) {
            gateway.sendEvent(new Release());
        }
    }

    @Override
    public void executionAttemptFailed(int subtask, int attemptNumber, Throwable reason) {
        gateways[subtask] = null;
        signal.forget(role, subtask);
    }

    @Override
    public void subtaskReset(int subtask, long checkpointId) {
        signal.forget(role, subtask);
    }

    @Override
    public void resetToCheckpoint(long checkpointId, byte[] checkpointData) {
        Arrays.fill(gateways, null);
        if (signal != null) {
            signal.forgetAll(role);
        }
    }

    @Override
    public void checkpointCoordinator(long checkpointId, CompletableFuture<byte[]> result) {
        result.complete(new byte[0]);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    @Override
    public void close() {}

    /** Creates the coordinator of one of the two operators, meeting its partner under {@code signalKey}. */
    public static final class Provider implements OperatorCoordinator.Provider {

        private static final long serialVersionUID = 1L;

        private final OperatorID operatorId;
        private final String signalKey;
        private final Role role;

        public Provider(OperatorID operatorId, String signalKey, Role role) {
            this.operatorId = operatorId;
            this.signalKey = signalKey;
            this.role = role;
        }

        @Override
        public OperatorID getOperatorId() {
            return operatorId;
        }

        @Override
        public OperatorCoordinator create(Context context) {
            return new DrainCoordinator(context, signalKey, role);
        }
    }
}
