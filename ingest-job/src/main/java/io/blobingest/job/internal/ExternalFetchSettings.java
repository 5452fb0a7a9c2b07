package io.blobingest.job.internal;

import io.blobingest.job.IngestJobOptions;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.storage.RetryPolicy;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.util.TimeUtils;

/**
 * The validated {@code external.fetch-*} options.
 *
 * @param concurrency fetches in flight per subtask, and the fetch threads of each subtask
 * @param retries how a fetch, and the sink's copy of a Dedicated blob, retry transient errors
 * @param timeout how long one fetch may take, every try and wait included
 */
@Internal
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
        requireCopiesWithinCheckpointTimeout(config, concurrency);
        return new ExternalFetchSettings(concurrency, new RetryPolicy(attempts, backoff), timeout);
    }

    /**
     * The sink copies the Dedicated blob of a completed fetch inside the fetch stage's completion
     * mail. An aligned checkpoint's trigger is an ordinary mail of the same (chained) task, queued
     * behind every completion already there: up to {@code concurrency} of them, each a copy of up
     * to the copy timeout. Together they must end before the checkpoint times out, or every
     * checkpoint fails over on the same records again.
     */
    private static void requireCopiesWithinCheckpointTimeout(ReadableConfig config, int concurrency) {
        Duration copyTimeout = config.get(RawPackSinkOptions.EXTERNAL_COPY_TIMEOUT);
        Duration checkpointTimeout = config.get(CheckpointingOptions.CHECKPOINTING_TIMEOUT);
        if (copyTimeout.isNegative() || copyTimeout.isZero()) {
            return; // refused by the sink builder, naming its option
        }
        Duration barrierWait = copyTimeout.multipliedBy(concurrency);
        if (barrierWait.compareTo(checkpointTimeout) >= 0) {
            throw new IllegalArgumentException(IngestJobOptions.EXTERNAL_FETCH_CONCURRENCY.key() + " (" + concurrency
                    + ") x " + RawPackSinkOptions.EXTERNAL_COPY_TIMEOUT.key() + " ("
                    + TimeUtils.formatWithHighestUnit(copyTimeout) + ") = "
                    + TimeUtils.formatWithHighestUnit(barrierWait)
                    + " must be shorter than " + CheckpointingOptions.CHECKPOINTING_TIMEOUT.key() + " ("
                    + TimeUtils.formatWithHighestUnit(checkpointTimeout) + "): a checkpoint barrier may wait for the "
                    + "sink's copies of the Dedicated blobs of that many completed fetches, each up to the copy "
                    + "timeout. Lower either, or raise the checkpoint timeout.");
        }
    }
}
