package io.blobingest.job.internal;

import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.sink.BlobTypes;
import io.blobingest.storage.ReadThreads;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.EitherTypeInfo;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.runtime.streamrecord.StreamElement;
import org.apache.flink.streaming.runtime.streamrecord.StreamElementSerializer;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.types.Either;
import org.apache.flink.util.function.ThrowingRunnable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetch stage: emits blobs whose bytes came with the record at once, and runs {@link
 * ExternalBlobFetcher} for each {@link ExternalFetch} on a thread of its own ({@link ReadThreads}),
 * so a slow object holds one thread, not the stream. Placed blobs go to the main output,
 * dead letters to {@link ClassifyRecords#DEAD_LETTERS}.
 *
 * <p>Why not Flink's async operator, which this stage was until issue #6: every element passes
 * through that operator's queue, and the queue is operator state, so a checkpoint serialized the
 * bytes of every Kafka-carried blob in flight (a video segment up to 40 MiB, its bytes twice: in
 * its record and as its payload) and, with object reuse, the operator deep-copied every element
 * on arrival. Here only fetches wait; what is in flight, and checkpointed, is {@link
 * ExternalFetch}es: a location and a range, not bytes. A restore fetches them again.
 *
 * <p>At most {@code concurrency} fetches are in flight per subtask; the next external record then
 * waits (the task keeps processing mail: completions, timers, checkpoints) until one ends, which
 * is the stage's backpressure. Emission is unordered. A fetch without a result within the timeout
 * is interrupted and its record dead-lettered as {@code fetch-failed}; of a fetch's outcome and
 * its timeout the first wins. Its thread counts until it really ends (a read may ignore the
 * interrupt): at most {@link #MAX_THREADS_PER_SLOT} {@code * concurrency} fetch threads are alive,
 * so healthy fetches keep their slots beside as many stuck ones, and past that bound the next
 * fetch waits for a thread to end, at most the fetch timeout, and is then dead-lettered as {@code
 * fetch-failed} naming the stuck threads: nothing holds the task thread, and so a checkpoint
 * barrier, without a deadline. The bound is the subtask's in this TaskManager, not this
 * instance's: threads that earlier attempts of the task left stuck still count ({@link
 * ReadThreads#join}), so task restarts cannot pile them up. At the end of input the stage waits
 * for every fetch in flight.
 *
 * <p>Completions and timeouts run in the task's mailbox thread, like everything else that touches
 * the in-flight map and the output; fetch threads only hand their outcome to the mailbox.
 *
 * <p>Metrics under {@code externalFetch}: {@code latencyMs} (a histogram of whole fetches,
 * retries included, from start to outcome), {@code retries}, {@code threads} (fetch threads alive,
 * those of fetches given up included, by earlier attempts too), {@code copiesAwaitingCredit} (with
 * {@code within-job} sharing: fetched Dedicated copies waiting for a {@link CopyCredits credit}
 * to cross the hop to the writers), and {@code deadLetters.<code>} for the codes this stage gives.
 */
@Internal
public final class FetchExternalBlobs extends AbstractStreamOperator<PlacedBlob>
        implements OneInputStreamOperator<Either<PlacedBlob, ExternalFetch>, PlacedBlob>, BoundedOneInput {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(FetchExternalBlobs.class);
    /** Fetches the latency histogram keeps, the most recent ones. */
    private static final int LATENCY_WINDOW = 1024;
    /**
     * Fetch threads per fetch slot: a fetch given up at its timeout keeps its thread until the
     * thread really ends, so up to this many times {@code concurrency} threads may be alive, and
     * healthy fetches keep their slots while as many stuck ones linger.
     */
    static final int MAX_THREADS_PER_SLOT = 2;
    /** How long closing waits for interrupted fetch threads to end, unless the factory says otherwise. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    /** The fetches in flight at a checkpoint: their inputs, fetched again after a restore. */
    static final ListStateDescriptor<ExternalFetch> IN_FLIGHT_STATE =
            new ListStateDescriptor<>("in-flight-external-fetches", BlobTypes.EXTERNAL_FETCH);

    /**
     * Where Flink's async operator, under the same uid, kept the inputs it held (stream elements of
     * {@code Either<PlacedBlob, ExternalFetch>}). Read once after a restore from a checkpoint
     * taken before this operator replaced it, so that an upgrade loses no record; never written.
     */
    static final String ASYNC_OPERATOR_STATE_NAME = "_async_wait_operator_state_";

    /**
     * The type of the async operator's elements as it wrote them: a {@link PlacedBlob} as a plain
     * POJO ({@link BlobTypes#PLACED_BLOB_FIELDS}), for the state was written before its payload was
     * serialized once.
     */
    static final TypeInformation<Either<PlacedBlob, ExternalFetch>> ASYNC_OPERATOR_ELEMENT_TYPE =
            new EitherTypeInfo<>(BlobTypes.PLACED_BLOB_FIELDS, BlobTypes.EXTERNAL_FETCH);

    private final ExternalBlobFetcher fetcher;
    private final int concurrency;
    private final int attempts;
    private final Duration timeout;
    private final Duration closeWait;
    private final transient MailboxExecutor mailbox;
    /** How long a copy that got no credit waits before it asks again. */
    static final Duration CREDIT_RETRY = Duration.ofMillis(50);

    /** Where a copy asks for its credit ({@link CopyCredits}); null: copies go on at once (no hop). */
    private final transient CopyCreditClient copyCredits;

    private transient Map<ExternalFetch, InFlight> inFlight;
    /** Fetched copies waiting for their credit, oldest first; still in {@link #inFlight}. */
    private transient Deque<AwaitingCopy> awaitingCredit;
    /** Whether a credit was asked for and the answer has not come yet. */
    private transient boolean askingForCredit;

    private transient Counter copiesSentWithoutCredit;

    private transient ListState<ExternalFetch> inFlightState;
    private transient List<Either<PlacedBlob, ExternalFetch>> restored;
    private transient ReadThreads threads;
    private transient volatile boolean closing;
    private transient Counter retries;
    private transient Histogram latencyMs;
    private transient Map<DeadLetterCode, Counter> deadLetters;

    FetchExternalBlobs(
            StreamOperatorParameters<PlacedBlob> parameters,
            ExternalBlobFetcher fetcher,
            ExternalFetchSettings settings,
            Duration closeWait,
            CopyCreditClient copyCredits) {
        super(parameters);
        this.closeWait = closeWait;
        this.copyCredits = copyCredits;
        this.fetcher = fetcher;
        this.concurrency = settings.concurrency();
        this.attempts = settings.retries().attempts();
        this.timeout = settings.timeout();
        this.mailbox = parameters.getMailboxExecutor();
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        inFlightState = context.getOperatorStateStore().getListState(IN_FLIGHT_STATE);
        restored = new ArrayList<>();
        if (context.isRestored()) {
            for (ExternalFetch fetch : inFlightState.get()) {
                restored.add(Either.Right(fetch));
            }
            ListState<StreamElement> asyncOperatorState = context.getOperatorStateStore()
                    .getListState(new ListStateDescriptor<>(
                            ASYNC_OPERATOR_STATE_NAME,
                            new StreamElementSerializer<>(ASYNC_OPERATOR_ELEMENT_TYPE.createSerializer(
                                    getExecutionConfig().getSerializerConfig()))));
            for (StreamElement element : asyncOperatorState.get()) {
                restored.add(
                        element.<Either<PlacedBlob, ExternalFetch>>asRecord().getValue());
            }
            asyncOperatorState.clear();
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        inFlight = new IdentityHashMap<>();
        awaitingCredit = new ArrayDeque<>();
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        // A thread's end, of this attempt's fetches or of an earlier attempt's stuck one, may free the
        // place that process() waits for: the mail wakes its mailbox.yield().
        threads = ReadThreads.join(
                "external-fetch-" + subtask + "-",
                MAX_THREADS_PER_SLOT * concurrency,
                () -> inMailbox(() -> {}, "end of a fetch thread"));
        MetricGroup metrics = getMetricGroup().addGroup("externalFetch");
        metrics.gauge("threads", (Gauge<Integer>) threads::alive);
        metrics.gauge("copiesAwaitingCredit", (Gauge<Integer>) this::copiesAwaitingCredit);
        copiesSentWithoutCredit = metrics.counter("copiesSentWithoutCredit");
        retries = metrics.counter("retries", new ThreadSafeSimpleCounter()); // incremented by fetch threads
        latencyMs = metrics.histogram("latencyMs", new DescriptiveStatisticsHistogram(LATENCY_WINDOW));
        deadLetters = new EnumMap<>(DeadLetterCode.class);
        MetricGroup byCode = metrics.addGroup("deadLetters");
        for (DeadLetterCode code : List.of(
                DeadLetterCode.URI_NOT_ALLOWED,
                DeadLetterCode.TOO_LARGE,
                DeadLetterCode.NOT_FOUND,
                DeadLetterCode.BAD_RANGE,
                DeadLetterCode.FETCH_FAILED)) {
            deadLetters.put(code, byCode.counter(code.wireName()));
        }
        for (Either<PlacedBlob, ExternalFetch> input : restored) {
            process(input);
        }
        restored = null;
    }

    @Override
    public void processElement(StreamRecord<Either<PlacedBlob, ExternalFetch>> element) throws Exception {
        process(element.getValue());
    }

    private void process(Either<PlacedBlob, ExternalFetch> input) throws InterruptedException {
        if (input.isLeft()) {
            emitPlaced(input.left());
            return;
        }
        ExternalFetch fetch = input.right();
        // Fetches in flight end by their timeout at the latest; threads stuck in fetches given up may
        // never end (a hung mount), so the wait for one of them is bounded by the fetch timeout too,
        // and a timer wakes the mailbox when it is up: the record is a dead letter, the barrier passes.
        ScheduledFuture<?> giveUp = null;
        long giveUpAt = 0;
        try {
            while (inFlight.size() >= concurrency || !threads.hasRoom()) {
                if (inFlight.size() < concurrency) {
                    long now = getProcessingTimeService().getCurrentProcessingTime();
                    if (giveUp == null) {
                        LOG.warn(
                                "All {} external fetch threads are alive, {} of them still in fetches given up at "
                                        + "their timeout by this or an earlier attempt of the task (reads that ignore "
                                        + "interrupts); the next fetch waits until one of them ends, at most {} ms: {}",
                                threads.alive(),
                                threads.alive() - inFlight.size(),
                                timeout.toMillis(),
                                threads.describeAlive());
                        giveUpAt = now + timeout.toMillis();
                        giveUp = getProcessingTimeService().registerTimer(giveUpAt, time -> {});
                    } else if (now >= giveUpAt) {
                        emitDeadLetter(new DeadLetter(
                                fetch.record(),
                                DeadLetterCode.FETCH_FAILED,
                                "no fetch thread came free to fetch " + fetch.location() + " within "
                                        + timeout.toMillis() + " ms (external.fetch-timeout): all "
                                        + threads.alive() + " are still in fetches given up at their timeout, reads"
                                        + " that ignore interrupts: " + threads.describeAlive()));
                        return;
                    }
                }
                mailbox.yield();
            }
        } finally {
            if (giveUp != null) {
                giveUp.cancel(false);
            }
        }
        start(fetch);
    }

    private void start(ExternalFetch fetch) {
        long started = System.nanoTime();
        String what =
                "fetching " + fetch.location() + " for input " + fetch.record().source();
        ScheduledFuture<?> timer = getProcessingTimeService()
                .registerTimer(
                        getProcessingTimeService().getCurrentProcessingTime() + timeout.toMillis(),
                        now -> timeOut(fetch));
        Thread thread = threads.start(what, () -> fetch(fetch, started));
        inFlight.put(fetch, new InFlight(thread, timer));
    }

    /** On a fetch thread: the fetch, its outcome handed to the mailbox. */
    private void fetch(ExternalFetch fetch, long started) {
        Either<PlacedBlob, DeadLetter> outcome;
        try {
            outcome = fetcher.fetch(fetch, (nextTry, wait, failure) -> {
                retries.inc();
                LOG.warn(
                        "Fetching {} for input {} failed; try {} of {} in {} ms: {}",
                        fetch.location(),
                        fetch.record().source(),
                        nextTry,
                        attempts,
                        wait.toMillis(),
                        failure.toString());
            });
        } catch (Throwable failure) { // the fetcher turns every exception into a dead letter: this is an Error
            inMailbox(
                    () -> {
                        if (inFlight.remove(fetch) != null) {
                            throw new IllegalStateException(
                                    "Fetching " + fetch.location() + " for input "
                                            + fetch.record().source() + " failed unexpectedly",
                                    failure);
                        }
                    },
                    "failure of fetching " + fetch.location());
            return;
        }
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        inMailbox(() -> complete(fetch, outcome, elapsedMs), "outcome of fetching " + fetch.location());
    }

    /** Hands an action to the mailbox; once the task is closing its mailbox refuses, and nobody waits for it. */
    private void inMailbox(ThrowingRunnable<? extends Exception> action, String description) {
        try {
            mailbox.execute(action, "%s", description);
        } catch (RejectedExecutionException e) {
            if (!closing) {
                throw e;
            }
            LOG.debug("Dropped the {}: the fetch stage is closing", description);
        }
    }

    private void complete(ExternalFetch fetch, Either<PlacedBlob, DeadLetter> outcome, long elapsedMs) {
        InFlight entry = inFlight.get(fetch);
        if (entry == null) {
            return; // timed out already: the dead letter went out
        }
        entry.timer().cancel(false);
        latencyMs.update(elapsedMs);
        if (copyCredits != null && outcome.isLeft() && outcome.left().source() != null) {
            // In flight until its credit comes: it holds its place, and a checkpoint keeps it to fetch again.
            awaitingCredit.add(new AwaitingCopy(
                    fetch, outcome.left(), getProcessingTimeService().getCurrentProcessingTime()));
            askForCredit();
            return;
        }
        inFlight.remove(fetch);
        emit(outcome);
    }

    /** Fetched copies of Dedicated blobs waiting for a credit to cross the hop to the writers. */
    int copiesAwaitingCredit() {
        return awaitingCredit.size();
    }

    /**
     * Asks for the oldest waiting copy's credit, one question at a time. The answer comes as a mail
     * of this operator, which the wait for room in {@link #process} serves.
     */
    private void askForCredit() {
        if (askingForCredit || awaitingCredit.isEmpty()) {
            return;
        }
        askingForCredit = true;
        copyCredits
                .ask()
                .whenComplete((granted, failure) -> inMailbox(
                        () -> answered(Boolean.TRUE.equals(granted), failure), "answer to a copy credit request"));
    }

    private void answered(boolean granted, Throwable failure) {
        askingForCredit = false;
        if (failure != null) {
            LOG.warn("Asking for a copy credit failed, asking again: {}", failure.toString());
        }
        AwaitingCopy oldest = awaitingCredit.peek();
        if (granted && oldest == null) {
            copyCredits.giveBack(); // its copy ended otherwise meanwhile
            return;
        }
        if (oldest == null) {
            return;
        }
        long now = getProcessingTimeService().getCurrentProcessingTime();
        if (granted || now - oldest.since() >= timeout.toMillis()) {
            if (!granted) {
                // Bounded: the task holds a fetch's place no longer than a fetch may take.
                copiesSentWithoutCredit.inc();
                LOG.warn(
                        "No copy credit came within {} ms (external.fetch-timeout) for {}: sending it on without one",
                        timeout.toMillis(),
                        oldest.fetch().location());
            }
            awaitingCredit.poll();
            inFlight.remove(oldest.fetch());
            emitPlaced(oldest.placed());
            askForCredit();
            return;
        }
        getProcessingTimeService().registerTimer(now + CREDIT_RETRY.toMillis(), time -> askForCredit());
    }

    private void timeOut(ExternalFetch fetch) {
        for (AwaitingCopy copy : awaitingCredit) {
            if (copy.fetch() == fetch) {
                return; // fetched in time; its timer fired before complete() cancelled it
            }
        }
        InFlight entry = inFlight.remove(fetch);
        if (entry == null) {
            return;
        }
        entry.thread().interrupt(); // its thread counts against the bound until it really ends
        emit(Either.Right(new DeadLetter(
                fetch.record(),
                DeadLetterCode.FETCH_FAILED,
                "fetching " + fetch.location() + " gave no result within " + timeout.toMillis()
                        + " ms (external.fetch-timeout)")));
    }

    private void emit(Either<PlacedBlob, DeadLetter> outcome) {
        if (outcome.isLeft()) {
            emitPlaced(outcome.left());
        } else {
            emitDeadLetter(outcome.right());
        }
    }

    /**
     * A Dedicated blob with an external source is copied by the sink writer later; a copy that
     * fails becomes a dead letter there ({@link FailedCopiesToDeadLetters}).
     */
    private void emitPlaced(PlacedBlob placed) {
        output.collect(new StreamRecord<>(placed));
    }

    private void emitDeadLetter(DeadLetter deadLetter) {
        deadLetters.get(deadLetter.code()).inc();
        output.collect(ClassifyRecords.DEAD_LETTERS, new StreamRecord<>(deadLetter));
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        inFlightState.update(new ArrayList<>(inFlight.keySet()));
    }

    /** Every input must end as a placed blob or a dead letter before the stage finishes. */
    @Override
    public void endInput() throws InterruptedException {
        while (!inFlight.isEmpty()) {
            mailbox.yield();
        }
    }

    /**
     * Interrupts the fetch threads and waits for them at most its close wait; those that ignore
     * the interrupt are named in a WARN and left to end on their own (daemon threads: they do not
     * keep the JVM alive).
     */
    @Override
    public void close() throws Exception {
        closing = true;
        try {
            if (inFlight != null) {
                inFlight.clear(); // an outcome still arriving finds no fetch to complete and emits nothing
            }
            if (threads != null) {
                List<String> stuck = threads.stop(closeWait);
                if (!stuck.isEmpty()) {
                    LOG.warn(
                            "{} external fetch threads did not end within {} ms of being interrupted and are left "
                                    + "to end on their own: {}",
                            stuck.size(),
                            closeWait.toMillis(),
                            stuck);
                }
            }
        } finally {
            super.close();
        }
    }

    /** The fetch threads alive, those of fetches already given up included. */
    int fetchThreadsAlive() {
        return threads.alive();
    }

    private record InFlight(Thread thread, ScheduledFuture<?> timer) {}

    /** A fetched copy of a Dedicated blob's External object, waiting for its credit since {@code since} (ms). */
    private record AwaitingCopy(ExternalFetch fetch, PlacedBlob placed, long since) {}
}
