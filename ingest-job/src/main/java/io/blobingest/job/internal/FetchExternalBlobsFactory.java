package io.blobingest.job.internal;

import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacedBlob;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.types.Either;

/**
 * Creates {@link FetchExternalBlobs} with its task's mailbox executor. Always chained: the stage
 * must share the task of the source and the sink (docs/external-blobs.md).
 */
public final class FetchExternalBlobsFactory extends AbstractStreamOperatorFactory<PlacedBlob>
        implements OneInputStreamOperatorFactory<Either<PlacedBlob, ExternalFetch>, PlacedBlob> {

    private static final long serialVersionUID = 1L;

    private final ExternalBlobFetcher fetcher;
    private final ExternalFetchSettings settings;

    public FetchExternalBlobsFactory(ExternalBlobFetcher fetcher, ExternalFetchSettings settings) {
        this.fetcher = fetcher;
        this.settings = settings;
        this.chainingStrategy = ChainingStrategy.ALWAYS;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends StreamOperator<PlacedBlob>> T createStreamOperator(
            StreamOperatorParameters<PlacedBlob> parameters) {
        return (T) new FetchExternalBlobs(parameters, fetcher, settings);
    }

    @Override
    public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader classLoader) {
        return FetchExternalBlobs.class;
    }
}
