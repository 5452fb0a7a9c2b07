package io.blobingest.job.internal;

import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacedBlob;
import java.time.Duration;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.CoordinatedOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.types.Either;

/**
 * Creates {@link FetchExternalBlobs} with its task's mailbox executor. Always chained: the stage
 * must share the task of the source (docs/external-blobs.md). With {@code within-job} sharing its
 * copies cross a network hop to the writers, and the stage sends them on only with a credit of its
 * {@link CopyCreditCoordinator} ({@link #withCopyCredits}).
 */
@Internal
public class FetchExternalBlobsFactory extends AbstractStreamOperatorFactory<PlacedBlob>
        implements OneInputStreamOperatorFactory<Either<PlacedBlob, ExternalFetch>, PlacedBlob> {

    private static final long serialVersionUID = 1L;

    private final ExternalBlobFetcher fetcher;
    private final ExternalFetchSettings settings;
    private Duration closeWait = FetchExternalBlobs.CLOSE_WAIT;

    public FetchExternalBlobsFactory(ExternalBlobFetcher fetcher, ExternalFetchSettings settings) {
        this.fetcher = fetcher;
        this.settings = settings;
        this.chainingStrategy = ChainingStrategy.ALWAYS;
    }

    /**
     * A stage whose copies cross a network hop: each waits for one of {@code external.fetch-concurrency}
     * credits, which the writers' task returns ({@link FailedCopiesToDeadLetters#withCopyCredits}).
     *
     * @param creditsKey where both coordinators find the job's {@link CopyCredits}
     */
    public static FetchExternalBlobsFactory withCopyCredits(
            ExternalBlobFetcher fetcher, ExternalFetchSettings settings, String creditsKey) {
        return new Credited(fetcher, settings, creditsKey);
    }

    /**
     * How long the stage's close waits for interrupted fetch threads (default {@link
     * FetchExternalBlobs#CLOSE_WAIT}): tests whose threads ignore interrupts on purpose wait less.
     */
    @VisibleForTesting
    FetchExternalBlobsFactory closingWithin(Duration wait) {
        this.closeWait = wait;
        return this;
    }

    Duration closeWait() {
        return closeWait;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends StreamOperator<PlacedBlob>> T createStreamOperator(
            StreamOperatorParameters<PlacedBlob> parameters) {
        return (T) new FetchExternalBlobs(parameters, fetcher, settings, closeWait, null);
    }

    @Override
    public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader classLoader) {
        return FetchExternalBlobs.class;
    }

    private static final class Credited extends FetchExternalBlobsFactory
            implements CoordinatedOperatorFactory<PlacedBlob> {

        private static final long serialVersionUID = 1L;

        private final ExternalBlobFetcher fetcher;
        private final ExternalFetchSettings settings;
        private final String creditsKey;

        private Credited(ExternalBlobFetcher fetcher, ExternalFetchSettings settings, String creditsKey) {
            super(fetcher, settings);
            this.fetcher = fetcher;
            this.settings = settings;
            this.creditsKey = creditsKey;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T extends StreamOperator<PlacedBlob>> T createStreamOperator(
                StreamOperatorParameters<PlacedBlob> parameters) {
            OperatorID id = parameters.getStreamConfig().getOperatorID();
            CopyCreditClient credits = CopyCreditClient.of(
                    parameters.getContainingTask().getEnvironment().getOperatorCoordinatorEventGateway(),
                    id,
                    parameters
                            .getContainingTask()
                            .getEnvironment()
                            .getTaskInfo()
                            .getIndexOfThisSubtask());
            FetchExternalBlobs stage = new FetchExternalBlobs(parameters, fetcher, settings, closeWait(), credits);
            return (T) stage;
        }

        @Override
        public OperatorCoordinator.Provider getCoordinatorProvider(String operatorName, OperatorID operatorId) {
            return new CopyCreditCoordinator.Provider(
                    operatorId, creditsKey, settings.concurrency(), CopyCreditCoordinator.Role.SENDER);
        }
    }
}
