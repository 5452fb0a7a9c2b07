package io.blobingest.job.internal;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationRequestHandler;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;

/**
 * Hands out and takes back the {@link CopyCredits} of a job with {@code within-job} sharing: one
 * coordinator for the fetch stage ({@link Role#SENDER}), whose subtasks ask for credits, one for
 * {@link FailedCopiesToDeadLetters} in the writers' task ({@link Role#RECEIVER}), whose subtasks
 * return them. The two meet in the job's coordinator store under a key drawn when the job is
 * built. Flink calls both on the JobManager's main thread.
 *
 * <p>A fetch subtask asks with a {@link CoordinationRequest}, not an operator event: the answer
 * comes back as a future it can hand to its own mailbox, which it serves while it waits for room
 * for its next fetch, whereas operator events reach a task as mails of the lowest priority, which
 * that wait does not serve (it serves only mails that may not take a checkpoint mid-record). The
 * answer is Flink's own {@link CollectCoordinationResponse} (1 for a credit, 0 for none), a class
 * every TaskManager can read without the job's class loader.
 *
 * <p>Any failover of a subtask fails every subtask here (the hop connects all of them), so any
 * reset frees every credit.
 */
@Internal
public final class CopyCreditCoordinator implements OperatorCoordinator, CoordinationRequestHandler {

    /** Which operator a coordinator serves. */
    public enum Role {
        SENDER,
        RECEIVER
    }

    /** From a fetch subtask: may one copy go on? */
    record CreditRequest(int subtask) implements CoordinationRequest {}

    /** From the writers' task (or a fetch subtask with a credit it cannot use): one credit back. */
    record CreditReturned() implements OperatorEvent {}

    static final long GRANTED = 1;

    private final Context context;
    private final String creditsKey;
    private final int limit;
    private final Role role;
    private CopyCredits credits;

    private CopyCreditCoordinator(Context context, String creditsKey, int limit, Role role) {
        this.context = context;
        this.creditsKey = creditsKey;
        this.limit = limit;
        this.role = role;
    }

    @Override
    public void start() {
        credits = (CopyCredits) context.getCoordinatorStore()
                .compute(creditsKey, (key, existing) -> existing != null ? existing : new CopyCredits(limit));
    }

    @Override
    public CompletableFuture<CoordinationResponse> handleCoordinationRequest(CoordinationRequest request) {
        if (!(request instanceof CreditRequest credit) || role != Role.SENDER) {
            throw new IllegalArgumentException("unexpected request " + request + " for the " + role + " coordinator");
        }
        long granted = credits.tryAcquire(credit.subtask()) ? GRANTED : 0;
        return CompletableFuture.completedFuture(new CollectCoordinationResponse("", granted, List.of()));
    }

    @Override
    public void handleEventFromOperator(int subtask, int attemptNumber, OperatorEvent event) {
        if (!(event instanceof CreditReturned)) {
            throw new IllegalArgumentException("unexpected event " + event + " for the " + role + " coordinator");
        }
        credits.returned();
    }

    @Override
    public void executionAttemptReady(int subtask, int attemptNumber, SubtaskGateway gateway) {}

    @Override
    public void executionAttemptFailed(int subtask, int attemptNumber, Throwable reason) {
        credits.reset();
    }

    @Override
    public void subtaskReset(int subtask, long checkpointId) {
        credits.reset();
    }

    @Override
    public void resetToCheckpoint(long checkpointId, byte[] checkpointData) {
        if (credits != null) {
            credits.reset();
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

    /** Creates the coordinator of one of the two operators. */
    public static final class Provider implements OperatorCoordinator.Provider {

        private static final long serialVersionUID = 1L;

        private final OperatorID operatorId;
        private final String creditsKey;
        private final int limit;
        private final Role role;

        public Provider(OperatorID operatorId, String creditsKey, int limit, Role role) {
            this.operatorId = operatorId;
            this.creditsKey = creditsKey;
            this.limit = limit;
            this.role = role;
        }

        @Override
        public OperatorID getOperatorId() {
            return operatorId;
        }

        @Override
        public OperatorCoordinator create(Context context) {
            return new CopyCreditCoordinator(context, creditsKey, limit, role);
        }
    }
}
