package io.blobingest.job.internal;

import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalCopyException;
import io.blobingest.placement.PlacedBlob;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEventGateway;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.CoordinatedOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chained directly in front of the Raw Pack sink's writer, in its task, whatever lies before it (a
 * network hop with {@code within-job} sharing): a Dedicated blob with an External source is copied
 * by the writer inside this operator's {@code output.collect}, and when that copy fails on the
 * source's side ({@link ExternalCopyException}: unreadable after the tries, ended early, stalled,
 * out of time), the writer is left as before the blob and the record becomes a dead letter here, on
 * {@link ClassifyRecords#DEAD_LETTERS}, in the same checkpoint epoch as the writer's state: the
 * sink has no output of its own for dead letters. Any other failure fails the task, and so does a
 * copy failure should this operator not be chained to the writer: loud, never lost.
 *
 * <p>Behind a network hop it returns each copy's credit when the writer is done with it ({@link
 * CopyCredits}), copied or dead-lettered.
 *
 * <p>Metrics under {@code externalCopy}: {@code deadLetters.<code>} for the codes a copy gives.
 */
@Internal
public final class FailedCopiesToDeadLetters extends AbstractStreamOperator<PlacedBlob>
        implements OneInputStreamOperator<PlacedBlob, PlacedBlob> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(FailedCopiesToDeadLetters.class);

    /** Where each copy's credit goes back; null: copies come without credits (no hop). */
    private final transient OperatorEventGateway copyCredits;

    private transient Map<DeadLetterCode, Counter> deadLetters;

    private FailedCopiesToDeadLetters(StreamOperatorParameters<PlacedBlob> parameters, OperatorEventGateway credits) {
        super(parameters);
        this.copyCredits = credits;
    }

    /** Chained behind the fetch stage: no credits. */
    public static OneInputStreamOperatorFactory<PlacedBlob, PlacedBlob> factory() {
        return new Factory();
    }

    /**
     * Behind {@code within-job} routing: returns the credits that {@link
     * FetchExternalBlobsFactory#withCopyCredits} hands out.
     */
    public static OneInputStreamOperatorFactory<PlacedBlob, PlacedBlob> withCopyCredits(String creditsKey, int limit) {
        return new Credited(creditsKey, limit);
    }

    @Override
    public void open() throws Exception {
        super.open();
        deadLetters = new EnumMap<>(DeadLetterCode.class);
        MetricGroup byCode = getMetricGroup().addGroup("externalCopy").addGroup("deadLetters");
        for (DeadLetterCode code :
                List.of(DeadLetterCode.NOT_FOUND, DeadLetterCode.FETCH_FAILED, DeadLetterCode.URI_NOT_ALLOWED)) {
            deadLetters.put(code, byCode.counter(code.wireName()));
        }
    }

    @Override
    public void processElement(StreamRecord<PlacedBlob> element) {
        PlacedBlob placed = element.getValue();
        if (placed.source() == null) {
            output.collect(element);
            return;
        }
        try {
            output.collect(element);
        } catch (RuntimeException e) {
            ExternalCopyException copyFailure = ExternalCopyException.findIn(e);
            if (copyFailure == null) {
                throw e;
            }
            LOG.warn("Dead-lettering input {}: {}", placed.record().source(), copyFailure.getMessage());
            deadLetters.get(copyFailure.code()).inc();
            output.collect(
                    ClassifyRecords.DEAD_LETTERS,
                    new StreamRecord<>(new DeadLetter(placed.record(), copyFailure.code(), copyFailure.getMessage())));
        }
        if (copyCredits != null) {
            copyCredits.sendEventToCoordinator(new CopyCreditCoordinator.CreditReturned());
        }
    }

    private static class Factory extends AbstractStreamOperatorFactory<PlacedBlob>
            implements OneInputStreamOperatorFactory<PlacedBlob, PlacedBlob> {

        private static final long serialVersionUID = 1L;

        @Override
        @SuppressWarnings("unchecked")
        public <T extends StreamOperator<PlacedBlob>> T createStreamOperator(
                StreamOperatorParameters<PlacedBlob> parameters) {
            return (T) new FailedCopiesToDeadLetters(parameters, credits(parameters));
        }

        OperatorEventGateway credits(StreamOperatorParameters<PlacedBlob> parameters) {
            return null;
        }

        @Override
        public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader classLoader) {
            return FailedCopiesToDeadLetters.class;
        }
    }

    private static final class Credited extends Factory implements CoordinatedOperatorFactory<PlacedBlob> {

        private static final long serialVersionUID = 1L;

        private final String creditsKey;
        private final int limit;

        private Credited(String creditsKey, int limit) {
            this.creditsKey = creditsKey;
            this.limit = limit;
        }

        @Override
        OperatorEventGateway credits(StreamOperatorParameters<PlacedBlob> parameters) {
            return parameters
                    .getOperatorEventDispatcher()
                    .getOperatorEventGateway(parameters.getStreamConfig().getOperatorID());
        }

        @Override
        public OperatorCoordinator.Provider getCoordinatorProvider(String operatorName, OperatorID operatorId) {
            return new CopyCreditCoordinator.Provider(
                    operatorId, creditsKey, limit, CopyCreditCoordinator.Role.RECEIVER);
        }
    }
}
