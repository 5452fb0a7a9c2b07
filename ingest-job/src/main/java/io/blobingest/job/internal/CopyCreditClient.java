package io.blobingest.job.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.jobgraph.tasks.TaskOperatorEventGateway;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;
import org.apache.flink.util.SerializedValue;

/** How a fetch subtask asks its {@link CopyCreditCoordinator} for a copy's credit, and gives one back. */
interface CopyCreditClient {

    /** Completes, on any thread, with whether a credit was granted; the subtask is in line if not. */
    CompletableFuture<Boolean> ask();

    /** Returns a credit granted when no copy was left to use it. */
    void giveBack();

    /** Through the task's gateway to the coordinators in the JobManager. */
    static CopyCreditClient of(TaskOperatorEventGateway gateway, OperatorID coordinator, int subtask) {
        SerializedValue<CopyCreditCoordinator.CreditRequest> request =
                serialized(new CopyCreditCoordinator.CreditRequest(subtask));
        return new CopyCreditClient() {
            @Override
            public CompletableFuture<Boolean> ask() {
                return gateway.sendRequestToCoordinator(coordinator, cast(request))
                        .thenApply(CopyCreditClient::granted);
            }

            @Override
            public void giveBack() {
                gateway.sendOperatorEventToCoordinator(
                        coordinator, cast(serialized(new CopyCreditCoordinator.CreditReturned())));
            }
        };
    }

    private static boolean granted(CoordinationResponse response) {
        return ((CollectCoordinationResponse) response).getLastCheckpointedOffset() == CopyCreditCoordinator.GRANTED;
    }

    private static <T> SerializedValue<T> serialized(T value) {
        try {
            return new SerializedValue<>(value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serialize " + value, e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> SerializedValue<T> cast(SerializedValue<?> value) {
        return (SerializedValue<T>) value;
    }
}
