package io.blobingest.job.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import io.blobingest.placement.PlacementPolicy;
import io.blobingest.storage.RetryPolicy;
import io.blobingest.storage.testing.FlakyFileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.streaming.api.datastream.AsyncDataStream.OutputMode;
import org.apache.flink.streaming.api.operators.async.AsyncWaitOperatorFactory;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.types.Either;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fetch stage in Flink's async operator, run by Flink's operator test harness. */
class FetchExternalBlobsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final ExternalFetchSettings SETTINGS =
            new ExternalFetchSettings(2, new RetryPolicy(1, Duration.ZERO), TIMEOUT);
    private static final ExternalBlobFetcher FETCHER =
            new ExternalBlobFetcher(new PlacementPolicy(10, 100, 1000), 500, SETTINGS.retries());

    @TempDir Path dir;

    @Test
    void placedBlobsPassThroughAndExternalOnesComeOutPlacedOrDeadLettered() throws Exception {
        PlacedBlob carried = new PlacedBlob(record(0), Placement.INLINE, new byte[] {9}, List.of(), null);
        Path object = Files.write(dir.resolve("object"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});

        List<Either<PlacedBlob, DeadLetter>> output;
        try (var harness = harness()) {
            harness.open();
            harness.processElement(Either.Left(carried), 0);
            harness.processElement(Either.Right(fetch(1, object)), 0);
            harness.processElement(Either.Right(fetch(2, dir.resolve("missing"))), 0);
            harness.endInput();
            output = harness.extractOutputValues();
        }

        assertThat(output).hasSize(3);
        assertThat(output).filteredOn(Either::isLeft).extracting(Either::left)
                .anySatisfy(placed -> assertThat(placed).usingRecursiveComparison().isEqualTo(carried))
                .anySatisfy(placed -> {
                    assertThat(placed.record().offset()).isEqualTo(1);
                    assertThat(placed.placement()).isEqualTo(Placement.PACKED);
                    assertThat(placed.bytes()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
                });
        assertThat(output).filteredOn(Either::isRight).singleElement().satisfies(deadLetter -> {
            assertThat(deadLetter.right().record().offset()).isEqualTo(2);
            assertThat(deadLetter.right().code()).isEqualTo(DeadLetterCode.NOT_FOUND);
        });
    }

    @Test
    void aFetchWithoutResultWithinTheTimeoutIsInterruptedAndDeadLettered() throws Exception {
        Path object = Files.write(dir.resolve("stalled"), new byte[50]);
        FlakyFileSystem.StalledReads stalled = FlakyFileSystem.stallReads(object);
        ExternalFetch fetch = new ExternalFetch(record(3), FlakyFileSystem.uri(object).toString(), 0, 0, List.of());

        List<Either<PlacedBlob, DeadLetter>> output;
        try (var harness = harness()) {
            harness.open();
            harness.setProcessingTime(0);
            harness.processElement(Either.Right(fetch), 0);
            assertThat(stalled.started().await(1, TimeUnit.MINUTES)).as("the fetch is reading").isTrue();
            harness.setProcessingTime(TIMEOUT.toMillis() + 1);
            assertThat(stalled.interrupted().await(1, TimeUnit.MINUTES)).as("the read was interrupted").isTrue();
            harness.endInput();
            output = harness.extractOutputValues();
        }

        assertThat(output).singleElement().satisfies(result -> {
            assertThat(result.isRight()).isTrue();
            assertThat(result.right().code()).isEqualTo(DeadLetterCode.FETCH_FAILED);
            assertThat(result.right().detail()).isEqualTo("fetching " + fetch.location()
                    + " gave no result within 30000 ms (external.fetch-timeout)");
        });
    }

    /** Set up, not opened: the tests open it where they want the clock to start. */
    private static OneInputStreamOperatorTestHarness<Either<PlacedBlob, ExternalFetch>, Either<PlacedBlob, DeadLetter>>
            harness() throws Exception {
        FetchExternalBlobs function = new FetchExternalBlobs(FETCHER, SETTINGS);
        var harness = new OneInputStreamOperatorTestHarness<>(
                new AsyncWaitOperatorFactory<>(function, TIMEOUT.toMillis(), SETTINGS.concurrency(), OutputMode.UNORDERED),
                ClassifyRecords.OUTPUT_TYPE.createSerializer(new SerializerConfigImpl()));
        harness.setup(function.getProducedType().createSerializer(new SerializerConfigImpl()));
        return harness;
    }

    private static ExternalFetch fetch(long offset, Path file) {
        return new ExternalFetch(record(offset), file.toUri().toString(), 0, 0, List.of());
    }

    private static BlobRecord record(long offset) {
        return new BlobRecord(null, null, List.of(), "in", 0, offset);
    }
}
