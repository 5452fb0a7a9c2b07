package io.blobingest.job.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobHeaders;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.BlobRecordClassifier;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import io.blobingest.placement.PlacementPolicy;
import io.blobingest.sink.BlobTypes;
import io.blobingest.storage.RetryPolicy;
import io.blobingest.storage.testing.FlakyFileSystem;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.java.typeutils.EitherTypeInfo;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.datastream.AsyncDataStream.OutputMode;
import org.apache.flink.streaming.api.functions.async.AsyncFunction;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.api.operators.async.AsyncWaitOperatorFactory;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.mailbox.Mail;
import org.apache.flink.streaming.runtime.tasks.mailbox.TaskMailbox;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.types.Either;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fetch stage, run by Flink's operator test harness. */
class FetchExternalBlobsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** Threads that ignore their interrupt on purpose are waited for this long at a close, not 10 s. */
    private static final Duration CLOSE_WAIT = Duration.ofMillis(200);

    private static final ExternalFetchSettings SETTINGS =
            new ExternalFetchSettings(2, new RetryPolicy(1, Duration.ZERO), TIMEOUT);
    private static final ExternalBlobFetcher FETCHER =
            new ExternalBlobFetcher(new PlacementPolicy(10, 100, 1000), 500, SETTINGS.retries(), List.of("file:/"));
    private static final byte[] CONTENT = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    private static final String SIGNATURE = "topsecret";

    @TempDir
    Path dir;

    @Test
    void placedBlobsPassThroughAtOnceAndExternalOnesComeOutPlacedOrDeadLettered() throws Exception {
        PlacedBlob carried = carried(0);
        Path object = Files.write(dir.resolve("object"), CONTENT);

        try (var harness = harness()) {
            harness.open();
            harness.processElement(Either.Left(carried), 0);
            assertThat(harness.extractOutputValues())
                    .as("emitted before any fetch ends")
                    .singleElement()
                    .usingRecursiveComparison()
                    .isEqualTo(carried);

            harness.processElement(Either.Right(fetch(1, object.toUri().toString())), 0);
            harness.processElement(
                    Either.Right(fetch(2, dir.resolve("missing").toUri().toString())), 0);
            harness.endInput();

            assertThat(harness.extractOutputValues()).hasSize(2).last().satisfies(this::isTheFetchedObject);
            assertThat(deadLetters(harness)).singleElement().satisfies(deadLetter -> {
                assertThat(deadLetter.record().offset()).isEqualTo(2);
                assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.NOT_FOUND);
            });
        }
    }

    @Test
    void aFetchWithoutResultWithinTheTimeoutIsInterruptedAndDeadLettered() throws Exception {
        Path object = Files.write(dir.resolve("stalled"), new byte[50]);
        FlakyFileSystem.StalledReads stalled = FlakyFileSystem.stallReads(object);
        ExternalFetch fetch = fetch(3, FlakyFileSystem.uri(object).toString());

        try (var harness = harness()) {
            harness.open();
            harness.setProcessingTime(0);
            harness.processElement(Either.Right(fetch), 0);
            assertThat(stalled.started().await(1, TimeUnit.MINUTES))
                    .as("the fetch is reading")
                    .isTrue();
            harness.setProcessingTime(TIMEOUT.toMillis() + 1);
            assertThat(stalled.interrupted().await(1, TimeUnit.MINUTES))
                    .as("the read was interrupted")
                    .isTrue();
            harness.endInput();

            assertThat(harness.extractOutputValues()).isEmpty();
            assertThat(deadLetters(harness)).singleElement().satisfies(deadLetter -> {
                assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.FETCH_FAILED);
                assertThat(deadLetter.detail())
                        .isEqualTo("fetching " + fetch.location()
                                + " gave no result within 30000 ms (external.fetch-timeout)");
            });
        }
    }

    @Test
    void fetchesThatIgnoreInterruptsAreDeadLetteredWhileHealthyOnesCompleteOnBoundedThreads() {
        // A bounded deadline for the whole test: before the fix, the stuck threads held the whole pool and
        // the healthy fetches never ran, so the end of input waited forever.
        assertTimeoutPreemptively(Duration.ofMinutes(2), () -> {
            Path healthy = Files.write(dir.resolve("healthy"), CONTENT);
            List<FlakyFileSystem.HungReads> hung = new ArrayList<>();
            List<Path> stuckObjects = new ArrayList<>();
            for (int i = 0; i < 2 * SETTINGS.concurrency(); i++) {
                Path stuck = Files.write(dir.resolve("stuck-" + i), CONTENT);
                stuckObjects.add(stuck);
                hung.add(FlakyFileSystem.hangReads(stuck));
            }
            var harness = harness();
            FetchExternalBlobs stage = null;
            try {
                harness.open();
                stage = (FetchExternalBlobs) harness.getOperator();
                long now = 0;
                harness.setProcessingTime(now);
                long offset = 1;
                for (int round = 0; round < 2; round++) { // two rounds of stuck fetches: as many threads as the bound
                    for (int slot = 0; slot < SETTINGS.concurrency(); slot++) {
                        int stuck = round * SETTINGS.concurrency() + slot;
                        String uri =
                                FlakyFileSystem.uri(stuckObjects.get(stuck)).toString();
                        harness.processElement(Either.Right(fetch(100 + stuck, uri)), 0);
                        assertThat(hung.get(stuck).started().await(1, TimeUnit.MINUTES))
                                .as("stuck fetch reads")
                                .isTrue();
                    }
                    now += TIMEOUT.toMillis() + 1;
                    harness.setProcessingTime(now);
                    assertThat(stage.fetchThreadsAlive())
                            .as("stuck threads stay alive after their timeout")
                            .isEqualTo((round + 1) * SETTINGS.concurrency());
                    if (round == 0) {
                        for (int i = 0; i < 4; i++) {
                            harness.processElement(
                                    Either.Right(fetch(offset++, healthy.toUri().toString())), 0);
                        }
                        drain(harness);
                        assertThat(harness.extractOutputValues())
                                .as("healthy fetches beside the stuck threads")
                                .hasSize(4)
                                .allSatisfy(placed -> assertThat(placed.bytes()).containsExactly(CONTENT));
                    }
                }
                assertThat(deadLetters(harness))
                        .hasSize(2 * SETTINGS.concurrency())
                        .allSatisfy(deadLetter -> {
                            assertThat(deadLetter.record().offset()).isGreaterThanOrEqualTo(100);
                            assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.FETCH_FAILED);
                        });
                assertThat(stage.fetchThreadsAlive())
                        .as("never more than the bound")
                        .isEqualTo(FetchExternalBlobs.MAX_THREADS_PER_SLOT * SETTINGS.concurrency());

                hung.get(0).release(); // one stuck thread ends: its place goes to the next fetch
                harness.processElement(
                        Either.Right(fetch(offset, healthy.toUri().toString())), 0);
                drain(harness);
                assertThat(harness.extractOutputValues()).hasSize(5);
                assertThat(stage.fetchThreadsAlive())
                        .isLessThanOrEqualTo(FetchExternalBlobs.MAX_THREADS_PER_SLOT * SETTINGS.concurrency());
            } finally {
                harness.close(); // returns, though three threads ignore its interrupts
            }
            assertThat(stage.fetchThreadsAlive())
                    .as("left to end on their own")
                    .isEqualTo(2 * SETTINGS.concurrency() - 1);
            hung.forEach(FlakyFileSystem.HungReads::release);
            stuckObjects.forEach(FlakyFileSystem::resumeReads);
        });
    }

    /**
     * Each fetch stage instance had a thread bound of its own, so after every
     * task restart (a new instance in the same TaskManager) reads stuck in a hung mount piled up
     * anew. The threads that earlier attempts left stuck count against the next attempt's bound; it
     * waits for one of them to end, naming them.
     */
    @Test
    void fetchThreadsStuckByEarlierAttemptsOfTheTaskCountAgainstTheBoundOfTheNextOne() {
        assertTimeoutPreemptively(Duration.ofMinutes(3), () -> {
            int bound = FetchExternalBlobs.MAX_THREADS_PER_SLOT * SETTINGS.concurrency();
            List<FlakyFileSystem.HungReads> hung = new ArrayList<>();
            List<Path> stuckObjects = new ArrayList<>();
            for (int i = 0; i < bound + 2; i++) {
                Path stuck = Files.write(dir.resolve("stuck-" + i), CONTENT);
                stuckObjects.add(stuck);
                hung.add(FlakyFileSystem.hangReads(stuck));
            }
            try (var logs = new CapturedLogs()) {
                try (var first = harness()) {
                    first.open();
                    first.setProcessingTime(0);
                    for (int round = 0; round < FetchExternalBlobs.MAX_THREADS_PER_SLOT; round++) {
                        for (int slot = 0; slot < SETTINGS.concurrency(); slot++) {
                            int stuck = round * SETTINGS.concurrency() + slot;
                            first.processElement(Either.Right(fetch(stuck, stuckUri(stuckObjects, stuck))), 0);
                            assertThat(hung.get(stuck).started().await(1, TimeUnit.MINUTES))
                                    .isTrue();
                        }
                        first.setProcessingTime((round + 1) * (TIMEOUT.toMillis() + 1));
                    }
                } // the task fails over: its stuck threads ignore the interrupts of close()
                assertThat(liveFetchThreads())
                        .as("the first attempt's stuck threads")
                        .hasSize(bound);

                for (int attempt = 2; attempt <= 3; attempt++) {
                    int released = attempt - 2;
                    int next = bound + released;
                    try (var restarted = harness()) {
                        restarted.open();
                        assertThat(((FetchExternalBlobs) restarted.getOperator()).fetchThreadsAlive())
                                .as("attempt %d counts the threads that earlier attempts left stuck", attempt)
                                .isEqualTo(bound);
                        int warnings = attempt - 1;
                        Thread releaser = new Thread(() -> {
                            awaitWarnings(logs, warnings);
                            hung.get(released).release();
                        });
                        releaser.setDaemon(true);
                        releaser.start();

                        restarted.processElement(Either.Right(fetch(next, stuckUri(stuckObjects, next))), 0);

                        assertThat(hung.get(next).started().await(1, TimeUnit.MINUTES))
                                .as("the fetch started once an earlier attempt's thread ended")
                                .isTrue();
                    }
                    assertThat(liveFetchThreads())
                            .as("after attempt %d", attempt)
                            .hasSize(bound);
                }
                assertThat(logs.text())
                        .contains("the next fetch waits until one of them ends, at most 30000 ms: [")
                        .containsPattern("external-fetch-0-\\d+ \\(fetching " + Pattern.quote(stuckUri(stuckObjects, 0))
                                + " for input in/0/0\\)");
            } finally {
                hung.forEach(FlakyFileSystem.HungReads::release);
                stuckObjects.forEach(FlakyFileSystem::resumeReads);
                for (Thread thread : liveFetchThreads()) {
                    thread.join();
                }
            }
        });
    }

    /**
     * With every thread of the bound stuck in a read that ignores its interrupt (a hung mount), the
     * next fetch waited until one of them ended, which may be never, holding the task thread and
     * every checkpoint barrier behind it. It waits at most the fetch timeout and is then dead-lettered.
     */
    @Test
    void aFetchThatFindsEveryThreadStuckIsDeadLetteredAfterTheFetchTimeout() {
        assertTimeoutPreemptively(Duration.ofMinutes(2), () -> {
            int bound = FetchExternalBlobs.MAX_THREADS_PER_SLOT * SETTINGS.concurrency();
            List<FlakyFileSystem.HungReads> hung = new ArrayList<>();
            List<Path> stuckObjects = new ArrayList<>();
            for (int i = 0; i < bound; i++) {
                Path stuck = Files.write(dir.resolve("stuck-" + i), CONTENT);
                stuckObjects.add(stuck);
                hung.add(FlakyFileSystem.hangReads(stuck));
            }
            Path healthy = Files.write(dir.resolve("healthy"), CONTENT);
            ExternalFetch waiting = fetch(7, healthy.toUri().toString());
            try (var logs = new CapturedLogs();
                    var harness = harness()) {
                harness.open();
                long now = 0;
                harness.setProcessingTime(now);
                for (int round = 0; round < FetchExternalBlobs.MAX_THREADS_PER_SLOT; round++) {
                    for (int slot = 0; slot < SETTINGS.concurrency(); slot++) {
                        int stuck = round * SETTINGS.concurrency() + slot;
                        harness.processElement(Either.Right(fetch(100 + stuck, stuckUri(stuckObjects, stuck))), 0);
                        assertThat(hung.get(stuck).started().await(1, TimeUnit.MINUTES))
                                .isTrue();
                    }
                    now += TIMEOUT.toMillis() + 1;
                    harness.setProcessingTime(now);
                }
                long waitStarted = now;
                // The clock moves only once the stage waits: then its give-up timer is due. In a task the
                // timer's callback is a mail, which wakes the wait; the harness runs callbacks on the
                // thread that moves its clock, so that thread sends the mail.
                Thread clock = new Thread(() -> {
                    awaitWarnings(logs, 1);
                    try {
                        harness.setProcessingTime(waitStarted + TIMEOUT.toMillis());
                        harness.getTaskMailbox().put(new Mail(() -> {}, Integer.MAX_VALUE, "the give-up timer"));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                clock.setDaemon(true);
                clock.start();

                harness.processElement(Either.Right(waiting), 0);

                assertThat(deadLetters(harness))
                        .as("the stuck fetches' dead letters, then the waiting one's")
                        .hasSize(bound + 1)
                        .last()
                        .satisfies(deadLetter -> {
                            assertThat(deadLetter.record().offset()).isEqualTo(7);
                            assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.FETCH_FAILED);
                            assertThat(deadLetter.detail())
                                    .startsWith("no fetch thread came free to fetch " + waiting.location()
                                            + " within 30000 ms (external.fetch-timeout): all " + bound
                                            + " are still in fetches given up at their timeout")
                                    .contains("external-fetch-0-");
                        });
                assertThat(harness.extractOutputValues()).isEmpty();
            } finally {
                hung.forEach(FlakyFileSystem.HungReads::release);
                stuckObjects.forEach(FlakyFileSystem::resumeReads);
                for (Thread thread : liveFetchThreads()) {
                    thread.join();
                }
            }
        });
    }

    private static String stuckUri(List<Path> stuckObjects, int index) {
        return FlakyFileSystem.uri(stuckObjects.get(index)).toString();
    }

    /** The fetch threads of subtask 0 alive in this JVM, whichever instance started them. */
    private static List<Thread> liveFetchThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("external-fetch-0-") && thread.isAlive())
                .toList();
    }

    /** Until the fetch stage has warned {@code count} times that the next fetch waits for a thread. */
    private static void awaitWarnings(CapturedLogs logs, int count) {
        while (logs.text().split("the next fetch waits", -1).length - 1 < count) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Where a {@code blob.uri} query (a presigned signature) goes: the location the stage reads has
     * none, so no log line and no dead-letter detail quotes it, whatever the fetch meets. The input
     * record of a fetch in flight at a checkpoint is kept whole, query included, because a restore
     * must be able to dead-letter it unchanged (spec.md section 4); that is the one place it reaches a
     * checkpoint (docs/external-blobs.md, "Secrets").
     */
    @Test
    void aBlobUriQueryReachesNoLogLineNorDetailAndOnlyTheCheckpointedInputRecord() throws Exception {
        Path flaky = Files.write(dir.resolve("flaky"), CONTENT);
        FlakyFileSystem.failReads(flaky, Integer.MAX_VALUE, 0);
        Path throwing = Files.write(dir.resolve("throwing"), CONTENT);
        FlakyFileSystem.failStatusWith(throwing, new IllegalStateException("file system bug"));
        Path outside =
                Files.write(Files.createDirectories(dir.resolve("outside")).resolve("secret"), CONTENT);
        Path allowed = Files.createDirectories(dir.resolve("allowed"));
        Path link = Files.createSymbolicLink(allowed.resolve("link"), outside);
        Path stalledObject = Files.write(dir.resolve("stalled"), CONTENT);
        FlakyFileSystem.StalledReads stalled = FlakyFileSystem.stallReads(stalledObject);
        String query = "?X-Amz-Signature=" + SIGNATURE;
        var classifier = new BlobRecordClassifier(
                new PlacementPolicy(10, 100, 1000), List.of(allowed.toUri().toString(), "flaky:/"), 500);
        var fetcher = new ExternalBlobFetcher(
                new PlacementPolicy(10, 100, 1000),
                500,
                new RetryPolicy(2, Duration.ZERO),
                List.of(allowed.toUri().toString(), "flaky:/"));
        var settings = new ExternalFetchSettings(8, new RetryPolicy(2, Duration.ZERO), TIMEOUT);
        List<String> uris = List.of(
                FlakyFileSystem.uri(flaky) + query,
                FlakyFileSystem.uri(throwing) + query,
                link.toUri() + query,
                allowed.toUri() + "missing" + query,
                FlakyFileSystem.uri(stalledObject) + query);

        OperatorSubtaskState checkpoint;
        try (var logs = new CapturedLogs();
                var harness = harness(fetcher, settings)) {
            harness.open();
            harness.setProcessingTime(0);
            for (int i = 0; i < uris.size(); i++) {
                harness.processElement(Either.Right((ExternalFetch) classifier.classify(withUri(i, uris.get(i)))), 0);
                if (i == uris.size() - 2) {
                    drain(harness); // all but the stalled one end before the clock moves
                }
            }
            assertThat(stalled.started().await(1, TimeUnit.MINUTES))
                    .as("the last fetch is reading")
                    .isTrue();
            checkpoint = harness.snapshot(1, 1);
            harness.setProcessingTime(TIMEOUT.toMillis() + 1); // the stalled fetch times out
            harness.endInput();

            assertThat(deadLetters(harness))
                    .extracting(DeadLetter::code)
                    .containsExactlyInAnyOrder(
                            DeadLetterCode.FETCH_FAILED,
                            DeadLetterCode.FETCH_FAILED,
                            DeadLetterCode.URI_NOT_ALLOWED,
                            DeadLetterCode.NOT_FOUND,
                            DeadLetterCode.FETCH_FAILED);
            assertThat(deadLetters(harness))
                    .extracting(DeadLetter::detail)
                    .allSatisfy(detail -> assertThat(detail).doesNotContain(SIGNATURE));
            assertThat(logs.text())
                    .as("a retry was logged")
                    .contains("failed; try 2 of 2")
                    .doesNotContain(SIGNATURE);
        }
        FlakyFileSystem.resumeReads(stalledObject);
        Files.delete(stalledObject);

        try (var restored = harness(fetcher, settings)) {
            restored.initializeState(checkpoint);
            restored.open();
            restored.endInput();

            assertThat(deadLetters(restored))
                    .as("the restored fetch, its input record unchanged")
                    .singleElement()
                    .satisfies(deadLetter -> {
                        assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.NOT_FOUND);
                        assertThat(deadLetter.record().headers())
                                .singleElement()
                                .satisfies(header -> assertThat(new String(header.value(), StandardCharsets.UTF_8))
                                        .isEqualTo(uris.get(4)));
                        assertThat(deadLetter.detail()).doesNotContain(SIGNATURE);
                    });
        }
    }

    @Test
    void aCheckpointHoldsTheFetchesInFlightButNotTheBlobsAlreadyPassedOn() throws Exception {
        Path object = Files.write(dir.resolve("slow"), CONTENT);
        FlakyFileSystem.StalledReads stalled = FlakyFileSystem.stallReads(object);
        OperatorSubtaskState checkpoint;
        try (var harness = harness()) {
            harness.open();
            harness.processElement(Either.Left(carried(0)), 0);
            harness.processElement(
                    Either.Right(fetch(1, FlakyFileSystem.uri(object).toString())), 0);
            assertThat(stalled.started().await(1, TimeUnit.MINUTES))
                    .as("the fetch is reading")
                    .isTrue();
            checkpoint = harness.snapshot(1, 1);
        }
        FlakyFileSystem.resumeReads(object);

        try (var restored = harness()) {
            restored.initializeState(checkpoint);
            restored.open();
            restored.endInput();

            assertThat(restored.extractOutputValues())
                    .as("fetched again; the carried blob went on before the checkpoint")
                    .singleElement()
                    .satisfies(this::isTheFetchedObject);
            assertThat(deadLetters(restored)).isEmpty();
        }
    }

    /**
     * With {@code within-job} sharing a fetched copy crosses a network hop, where a barrier would
     * wait behind every copy queued: it goes on only with a credit, asked for again while refused,
     * and until then it is in flight, kept by a checkpoint to be fetched again.
     */
    @Test
    void behindAHopAFetchedCopyGoesOnOnlyWithACreditAndACheckpointKeepsItUntilThen() throws Exception {
        String object = Files.write(dir.resolve("object"), CONTENT).toUri().toString();
        ScriptedCredits credits = new ScriptedCredits();
        OperatorSubtaskState checkpoint;
        try (var harness = creditedHarness(credits)) {
            harness.open();
            harness.setProcessingTime(0);
            harness.processElement(Either.Right(fetch(1, object)), 0);
            harness.processElement(Either.Left(carried(0)), 0);
            runMailsUntil(harness, () -> credits.asked.size() == 1);

            checkpoint = harness.snapshot(1, 1);
            credits.answer(false);
            runMailsUntil(harness, () -> true);
            assertThat(harness.extractOutputValues())
                    .as("refused: only the carried blob went on")
                    .singleElement()
                    .satisfies(placed -> assertThat(placed.record().offset()).isZero());

            harness.setProcessingTime(FetchExternalBlobs.CREDIT_RETRY.toMillis());
            runMailsUntil(harness, () -> credits.asked.size() == 1);
            credits.answer(true);
            runMailsUntil(harness, () -> harness.extractOutputValues().size() == 2);
            assertThat(harness.extractOutputValues().get(1).source())
                    .as("the copy went on with its credit")
                    .isNotNull();
        }

        ScriptedCredits restoredCredits = new ScriptedCredits();
        try (var restored = creditedHarness(restoredCredits)) {
            restored.initializeState(checkpoint);
            restored.open();
            runMailsUntil(restored, () -> restoredCredits.asked.size() == 1);
            restoredCredits.answer(true);
            restored.endInput();

            assertThat(restored.extractOutputValues())
                    .as("fetched again from the checkpoint, and sent on with a credit")
                    .singleElement()
                    .satisfies(placed -> assertThat(placed.record().offset()).isEqualTo(1));
        }
    }

    /** A fetch's place is held no longer than a fetch may take: past its timeout a copy goes on without credit. */
    @Test
    void aCopyRefusedACreditForTheFetchTimeoutGoesOnWithoutOne() throws Exception {
        String object = Files.write(dir.resolve("object"), CONTENT).toUri().toString();
        ScriptedCredits credits = new ScriptedCredits();
        try (var harness = creditedHarness(credits)) {
            harness.open();
            harness.setProcessingTime(0);
            harness.processElement(Either.Right(fetch(1, object)), 0);
            runMailsUntil(harness, () -> credits.asked.size() == 1);

            harness.setProcessingTime(TIMEOUT.toMillis());
            credits.answer(false);
            runMailsUntil(harness, () -> harness.extractOutputValues().size() == 1);
            assertThat(harness.extractOutputValues().get(0).source()).isNotNull();
        }
    }

    private static OneInputStreamOperatorTestHarness<Either<PlacedBlob, ExternalFetch>, PlacedBlob> creditedHarness(
            CopyCreditClient credits) throws Exception {
        ExternalBlobFetcher dedicating =
                new ExternalBlobFetcher(new PlacementPolicy(2, 4, 1000), 500, SETTINGS.retries(), List.of("file:/"));
        return new OneInputStreamOperatorTestHarness<>(
                new FetchExternalBlobsFactory(dedicating, SETTINGS) {
                    @Override
                    @SuppressWarnings("unchecked")
                    public <T extends StreamOperator<PlacedBlob>> T createStreamOperator(
                            StreamOperatorParameters<PlacedBlob> parameters) {
                        return (T) new FetchExternalBlobs(parameters, dedicating, SETTINGS, CLOSE_WAIT, credits);
                    }
                },
                ClassifyRecords.OUTPUT_TYPE.createSerializer(new SerializerConfigImpl()));
    }

    /** Runs the task's mails (fetch outcomes, credit answers) until {@code done}, at most a minute. */
    private static void runMailsUntil(
            OneInputStreamOperatorTestHarness<Either<PlacedBlob, ExternalFetch>, PlacedBlob> harness,
            BooleanSupplier done)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        do {
            Optional<Mail> mail = harness.getTaskMailbox().tryTake(TaskMailbox.MIN_PRIORITY);
            if (mail.isPresent()) {
                mail.get().run();
            } else if (!done.getAsBoolean()) {
                assertThat(System.nanoTime()).as("done within a minute").isLessThan(deadline);
                Thread.sleep(10);
            }
        } while (!done.getAsBoolean() || harness.getTaskMailbox().hasMail());
    }

    /** The coordinator's answers, given by the test. */
    private static final class ScriptedCredits implements CopyCreditClient {
        final Deque<CompletableFuture<Boolean>> asked = new ConcurrentLinkedDeque<>();

        @Override
        public CompletableFuture<Boolean> ask() {
            CompletableFuture<Boolean> answer = new CompletableFuture<>();
            asked.add(answer);
            return answer;
        }

        @Override
        public void giveBack() {
            throw new AssertionError("no credit to give back: a copy waited for each");
        }

        void answer(boolean granted) {
            asked.remove().complete(granted);
        }
    }

    @Test
    void aCheckpointOfFlinksAsyncOperatorUnderTheSameUidIsRestoredWithoutLosingARecord() throws Exception {
        Path object = Files.write(dir.resolve("object"), CONTENT);
        PlacedBlob carried = carried(0);
        OperatorSubtaskState checkpoint;
        AsyncFunction<Either<PlacedBlob, ExternalFetch>, PlacedBlob> neverAnswers = new NeverAnswers();
        try (var asyncOperator = new OneInputStreamOperatorTestHarness<>(
                new AsyncWaitOperatorFactory<>(neverAnswers, TIMEOUT.toMillis(), 4, OutputMode.UNORDERED),
                // As the job serialized its elements then, each blob's payload twice.
                new EitherTypeInfo<>(BlobTypes.PLACED_BLOB_FIELDS, BlobTypes.EXTERNAL_FETCH)
                        .createSerializer(new SerializerConfigImpl()))) {
            asyncOperator.open();
            asyncOperator.processElement(Either.Left(carried), 0);
            asyncOperator.processElement(Either.Right(fetch(1, object.toUri().toString())), 0);
            checkpoint = asyncOperator.snapshot(1, 1);
        }

        try (var restored = harness()) {
            restored.initializeState(checkpoint);
            restored.open();
            restored.endInput();

            assertThat(restored.extractOutputValues())
                    .hasSize(2)
                    .anySatisfy(placed ->
                            assertThat(placed).usingRecursiveComparison().isEqualTo(carried))
                    .anySatisfy(this::isTheFetchedObject);
        }
    }

    /** Waits, serving the mailbox, until every fetch in flight has its outcome (what the end of input does). */
    private static void drain(OneInputStreamOperatorTestHarness<Either<PlacedBlob, ExternalFetch>, PlacedBlob> harness)
            throws Exception {
        ((FetchExternalBlobs) harness.getOperator()).endInput();
    }

    private void isTheFetchedObject(PlacedBlob placed) {
        assertThat(placed.record().offset()).isEqualTo(1);
        assertThat(placed.placement()).isEqualTo(Placement.PACKED);
        assertThat(placed.bytes()).containsExactly(CONTENT);
    }

    /** Set up, not opened: the tests open it where they want the clock to start. */
    private static OneInputStreamOperatorTestHarness<Either<PlacedBlob, ExternalFetch>, PlacedBlob> harness()
            throws Exception {
        return harness(FETCHER, SETTINGS);
    }

    private static OneInputStreamOperatorTestHarness<Either<PlacedBlob, ExternalFetch>, PlacedBlob> harness(
            ExternalBlobFetcher fetcher, ExternalFetchSettings settings) throws Exception {
        return new OneInputStreamOperatorTestHarness<>(
                new FetchExternalBlobsFactory(fetcher, settings).closingWithin(CLOSE_WAIT),
                ClassifyRecords.OUTPUT_TYPE.createSerializer(new SerializerConfigImpl()));
    }

    private static List<DeadLetter> deadLetters(
            OneInputStreamOperatorTestHarness<Either<PlacedBlob, ExternalFetch>, PlacedBlob> harness) {
        var deadLetters = harness.getSideOutput(ClassifyRecords.DEAD_LETTERS);
        return deadLetters == null
                ? List.of()
                : deadLetters.stream().map(StreamRecord::getValue).toList();
    }

    /** A blob that came in Kafka: its bytes are its record's value, as the classifier places it. */
    private static PlacedBlob carried(long offset) {
        byte[] value = {9};
        return new PlacedBlob(
                new BlobRecord(null, value, List.of(), "in", 0, offset, null),
                Placement.INLINE,
                value,
                List.of(),
                null);
    }

    private static ExternalFetch fetch(long offset, String location) {
        return new ExternalFetch(record(offset), location, 0, 0, List.of());
    }

    private static BlobRecord withUri(long offset, String uri) {
        return new BlobRecord(
                null,
                null,
                List.of(new Attribute(BlobHeaders.URI, uri.getBytes(StandardCharsets.UTF_8))),
                "in",
                0,
                offset,
                null);
    }

    /** Every log line of this project's classes while open, as text. */
    private static final class CapturedLogs implements AutoCloseable {
        private final StringWriter text = new StringWriter();
        private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
        private final WriterAppender appender = WriterAppender.newBuilder()
                .setName("captured")
                .setTarget(text)
                .setLayout(PatternLayout.newBuilder()
                        .withPattern("%level %c{1} - %msg %throwable%n")
                        .build())
                .build();

        CapturedLogs() {
            appender.start();
            context.getConfiguration().getLoggerConfig("io.blobingest").addAppender(appender, Level.ALL, null);
            context.updateLoggers();
        }

        String text() {
            return text.toString();
        }

        @Override
        public void close() {
            context.getConfiguration().getLoggerConfig("io.blobingest").removeAppender("captured");
            context.updateLoggers();
            appender.stop();
        }
    }

    private static BlobRecord record(long offset) {
        return new BlobRecord(null, null, List.of(), "in", 0, offset, null);
    }

    /** Keeps every input in Flink's async operator, as a slow fetch would. */
    private static final class NeverAnswers implements AsyncFunction<Either<PlacedBlob, ExternalFetch>, PlacedBlob> {
        @Override
        public void asyncInvoke(Either<PlacedBlob, ExternalFetch> input, ResultFuture<PlacedBlob> result) {}
    }
}
