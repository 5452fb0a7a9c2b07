package io.blobingest.job.internal;

import io.blobingest.kafka.BlobTypes;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacedBlob;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.EitherTypeInfo;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;
import org.apache.flink.types.Either;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetch stage: runs {@link ExternalBlobFetcher} for each {@link ExternalFetch} on a pool of
 * {@code concurrency} threads this function owns, so a slow object holds one thread, not the
 * stream. Used with {@code AsyncDataStream.unorderedWait} and a capacity of {@code concurrency}:
 * at most that many records are in flight per subtask, and Flink checkpoints the waiting inputs
 * and fetches them again after a restore.
 *
 * <p>Blobs placed already (their bytes came in Kafka) pass through at once. They go through this
 * stage rather than around it because a union in front of the sink would break the operator chain
 * from the source to the sink, which the sink's end-of-input drain needs (docs/external-blobs.md).
 *
 * <p>Emits {@code Left(PlacedBlob)} or {@code Right(DeadLetter)}. A fetch without a result
 * within the timeout is interrupted and its record dead-lettered as {@code fetch-failed}.
 *
 * <p>Metrics under {@code externalFetch}: {@code latencyMs} (a histogram of whole fetches,
 * retries included, from start to outcome), {@code retries}, and {@code deadLetters.<code>} for the
 * codes this stage gives.
 */
public final class FetchExternalBlobs
        extends RichAsyncFunction<Either<PlacedBlob, ExternalFetch>, Either<PlacedBlob, DeadLetter>>
        implements ResultTypeQueryable<Either<PlacedBlob, DeadLetter>> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(FetchExternalBlobs.class);
    /** Fetches the latency histogram keeps, the most recent ones. */
    private static final int LATENCY_WINDOW = 1024;

    private final ExternalBlobFetcher fetcher;
    private final int concurrency;
    private final int attempts;
    private final Duration timeout;

    private transient ExecutorService threads;
    private transient Map<ExternalFetch, Future<?>> inFlight;
    private transient Counter retries;
    private transient Histogram latencyMs;
    private transient Map<DeadLetterCode, Counter> deadLetters;

    public FetchExternalBlobs(ExternalBlobFetcher fetcher, ExternalFetchSettings settings) {
        this.fetcher = fetcher;
        this.concurrency = settings.concurrency();
        this.attempts = settings.retries().attempts();
        this.timeout = settings.timeout();
    }

    @Override
    public void open(OpenContext openContext) {
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        threads = Executors.newFixedThreadPool(concurrency, namedDaemonThreads("external-fetch-" + subtask + "-"));
        inFlight = Collections.synchronizedMap(new IdentityHashMap<>());
        MetricGroup metrics = getRuntimeContext().getMetricGroup().addGroup("externalFetch");
        retries = metrics.counter("retries");
        latencyMs = metrics.histogram("latencyMs", new DescriptiveStatisticsHistogram(LATENCY_WINDOW));
        deadLetters = new EnumMap<>(DeadLetterCode.class);
        MetricGroup byCode = metrics.addGroup("deadLetters");
        for (DeadLetterCode code : List.of(DeadLetterCode.TOO_LARGE, DeadLetterCode.NOT_FOUND, DeadLetterCode.BAD_RANGE,
                DeadLetterCode.FETCH_FAILED)) {
            deadLetters.put(code, byCode.counter(code.wireName()));
        }
    }

    @Override
    public void asyncInvoke(
            Either<PlacedBlob, ExternalFetch> input, ResultFuture<Either<PlacedBlob, DeadLetter>> result) {
        if (input.isLeft()) {
            result.complete(List.of(Either.Left(input.left())));
            return;
        }
        ExternalFetch fetch = input.right();
        FutureTask<Void> task = new FutureTask<>(() -> {
            long started = System.nanoTime();
            try {
                Either<PlacedBlob, DeadLetter> outcome = fetcher.fetch(fetch, (nextTry, wait, failure) -> {
                    retries.inc();
                    LOG.warn("Fetching {} for input {} failed; try {} of {} in {} ms: {}", fetch.location(),
                            fetch.record().source(), nextTry, attempts, wait.toMillis(), failure.toString());
                });
                latencyMs.update(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
                if (inFlight.remove(fetch) != null) {
                    complete(result, outcome);
                }
            } catch (RuntimeException e) {
                inFlight.remove(fetch);
                result.completeExceptionally(e);
            }
            return null;
        });
        inFlight.put(fetch, task);
        threads.execute(task);
    }

    /** Whichever comes first, the fetch's outcome or this timeout, takes the fetch out of flight and answers. */
    @Override
    public void timeout(
            Either<PlacedBlob, ExternalFetch> input, ResultFuture<Either<PlacedBlob, DeadLetter>> result) {
        if (input.isLeft()) {
            return;
        }
        ExternalFetch fetch = input.right();
        Future<?> task = inFlight.remove(fetch);
        if (task == null) {
            return;
        }
        task.cancel(true);
        complete(result, Either.Right(new DeadLetter(fetch.record(), DeadLetterCode.FETCH_FAILED, "fetching "
                + fetch.location() + " gave no result within " + timeout.toMillis() + " ms (external.fetch-timeout)")));
    }

    @Override
    public void close() throws InterruptedException {
        if (threads != null) {
            threads.shutdownNow();
            if (!threads.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("External fetch threads did not stop within 10 s of being interrupted");
            }
        }
    }

    @Override
    public TypeInformation<Either<PlacedBlob, DeadLetter>> getProducedType() {
        return new EitherTypeInfo<>(BlobTypes.PLACED_BLOB, BlobTypes.DEAD_LETTER);
    }

    private void complete(ResultFuture<Either<PlacedBlob, DeadLetter>> result, Either<PlacedBlob, DeadLetter> outcome) {
        if (outcome.isRight()) {
            deadLetters.get(outcome.right().code()).inc();
        }
        result.complete(List.of(outcome));
    }

    private static ThreadFactory namedDaemonThreads(String prefix) {
        AtomicInteger next = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + next.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
