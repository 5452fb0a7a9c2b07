package io.blobingest.job.internal;

import io.blobingest.job.IngestJobOptions;
import io.blobingest.storage.RetryPolicy;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The validated {@code external.fetch-*} options.
 *
 * @param concurrency fetches in flight per subtask, and the fetch threads of each subtask
 * @param retries how a fetch, and the sink's copy of a Dedicated blob, retry transient errors
 * @param timeout how long one fetch may take, every try and wait included
 */
public record ExternalFetchSettings(int concurrency, RetryPolicy retries, Duration timeout) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** @throws IllegalArgumentException naming the offending option */
    public static ExternalFetchSettings fromConfig(ReadableConfig config) {
        int concurrency = config.get(IngestJobOptions.EXTERNAL_FETCH_CONCURRENCY);
        int attempts = config.get(IngestJobOptions.EXTERNAL_FETCH_ATTEMPTS);
        Duration backoff = config.get(IngestJobOptions.EXTERNAL_FETCH_BACKOFF);
        Duration timeout = config.get(IngestJobOptions.EXTERNAL_FETCH_TIMEOUT);
        if (concurrency < 1) {
            throw new IllegalArgumentException(
                    IngestJobOptions.EXTERNAL_FETCH_CONCURRENCY.key() + " must be >= 1, found " + concurrency);
        }
        if (attempts < 1) {
            throw new IllegalArgumentException(
                    IngestJobOptions.EXTERNAL_FETCH_ATTEMPTS.key() + " must be >= 1, found " + attempts);
        }
        if (backoff.isNegative()) {
            throw new IllegalArgumentException(
                    IngestJobOptions.EXTERNAL_FETCH_BACKOFF.key() + " must be >= 0, found " + backoff);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(
                    IngestJobOptions.EXTERNAL_FETCH_TIMEOUT.key() + " must be positive, found " + timeout);
        }
        return new ExternalFetchSettings(concurrency, new RetryPolicy(attempts, backoff), timeout);
    }
}
