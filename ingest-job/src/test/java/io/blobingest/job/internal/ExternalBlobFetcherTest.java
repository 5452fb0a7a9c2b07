package io.blobingest.job.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalBytes;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import io.blobingest.placement.PlacementPolicy;
import io.blobingest.storage.RetryPolicy;
import io.blobingest.storage.testing.FlakyFileSystem;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.types.Either;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fetcher against real files through Flink's local file system and the flaky test file system. */
class ExternalBlobFetcherTest {

    private static final long MAX = 500;
    private static final RetryPolicy THREE_TRIES = new RetryPolicy(3, Duration.ZERO);
    private static final List<Attribute> ATTRIBUTES =
            List.of(new Attribute("camera", "front".getBytes(StandardCharsets.UTF_8)));

    private static final PlacementPolicy POLICY = new PlacementPolicy(10, 100, 1000);

    private final List<Integer> retries = new ArrayList<>();

    @TempDir
    Path dir;

    private ExternalBlobFetcher fetcher;
    private Path object;
    private byte[] content;

    @BeforeEach
    void writeObject() throws IOException {
        fetcher = new ExternalBlobFetcher(
                POLICY, MAX, THREE_TRIES, List.of(dir.toUri().toString()));
        content = new byte[300];
        new SplittableRandom(3).nextBytes(content);
        object = Files.write(dir.resolve("object.bin"), content);
    }

    @Test
    void aSmallWholeObjectIsInlineWithItsBytes() throws IOException {
        Path small = Files.write(dir.resolve("small"), new byte[] {1, 2, 3});

        PlacedBlob placed = placed(fetch(small.toUri(), 0, 0));

        assertThat(placed.placement()).isEqualTo(Placement.INLINE);
        assertThat(placed.bytes()).containsExactly(1, 2, 3);
        assertThat(placed.attributes()).isEqualTo(ATTRIBUTES);
        assertThat(retries).isEmpty();
    }

    @Test
    void aRangeIsPlacedByItsOwnSizeWithExactlyItsBytes() {
        PlacedBlob placed = placed(fetch(object.toUri(), 40, 60));

        assertThat(placed.placement()).isEqualTo(Placement.PACKED);
        assertThat(placed.bytes()).isEqualTo(Arrays.copyOfRange(content, 40, 100));
    }

    @Test
    void aRangeEndingAtTheObjectsEndIsFetched() {
        assertThat(placed(fetch(object.toUri(), 290, 10)).bytes()).isEqualTo(Arrays.copyOfRange(content, 290, 300));
        assertThat(placed(fetch(object.toUri(), 300, 0)).bytes()).isEmpty();
    }

    @Test
    void aBlobAboveTheDedicatedThresholdIsNotReadButCopiedLaterFromItsExactRange() {
        FlakyFileSystem.failReads(object, Integer.MAX_VALUE, 0);
        URI uri = FlakyFileSystem.uri(object);

        PlacedBlob whole = placed(fetch(uri, 0, 0));
        PlacedBlob range = placed(fetch(uri, 50, 101));

        assertThat(whole.placement()).isEqualTo(Placement.DEDICATED);
        assertThat(whole.bytes()).isNull();
        assertThat(whole.source()).isEqualTo(new ExternalBytes(uri.toString(), 0, 300));
        assertThat(range.source()).isEqualTo(new ExternalBytes(uri.toString(), 50, 101));
        assertThat(retries).as("nothing was read, so nothing failed").isEmpty();
    }

    @Test
    void aMissingObjectIsNotFoundWithoutRetries() {
        DeadLetter deadLetter = deadLetter(fetch(dir.resolve("missing").toUri(), 0, 0));

        assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.NOT_FOUND);
        assertThat(deadLetter.detail()).startsWith(dir.resolve("missing").toUri() + " does not exist");
        assertThat(retries).isEmpty();
    }

    @Test
    void aDirectoryIsNotFound() {
        DeadLetter deadLetter = deadLetter(fetch(dir.toUri(), 0, 0));

        assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.NOT_FOUND);
        assertThat(deadLetter.detail()).endsWith("is a directory, not an object");
    }

    @Test
    void aRangeEndingBeyondTheObjectIsABadRange() {
        DeadLetter deadLetter = deadLetter(fetch(object.toUri(), 250, 51));

        assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.BAD_RANGE);
        assertThat(deadLetter.detail())
                .isEqualTo(
                        "blob.position 250 + blob.size 51 ends beyond " + object.toUri() + ", which is 300 bytes long");
    }

    @Test
    void aRangeStartingBeyondTheObjectIsABadRangeEvenAtTheTopOfU64() {
        assertThat(deadLetter(fetch(object.toUri(), 301, 0)).code()).isEqualTo(DeadLetterCode.BAD_RANGE);
        assertThat(deadLetter(fetch(object.toUri(), -2, 1)).detail())
                .startsWith("blob.position 18446744073709551614 + blob.size 1 ends beyond");
    }

    @Test
    void aWholeObjectAboveTheMaximumIsTooLarge() throws IOException {
        Path large = Files.write(dir.resolve("large"), new byte[(int) MAX + 1]);

        DeadLetter deadLetter = deadLetter(fetch(large.toUri(), 0, 0));

        assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.TOO_LARGE);
        assertThat(deadLetter.detail())
                .isEqualTo(large.toUri() + " is 501 bytes, the maximum is 500 bytes (placement.max-blob-size)");
    }

    @Test
    void transientReadFailuresAreRetriedUntilTheBytesArrive() {
        FlakyFileSystem.failReads(object, 2, 10);

        PlacedBlob placed = placed(fetch(FlakyFileSystem.uri(object), 0, 100));

        assertThat(placed.bytes()).isEqualTo(Arrays.copyOfRange(content, 0, 100));
        assertThat(retries).containsExactly(2, 3);
    }

    @Test
    void readsThatKeepFailingEndAsFetchFailedAfterEveryTry() {
        FlakyFileSystem.failReads(object, Integer.MAX_VALUE, 0);
        URI uri = FlakyFileSystem.uri(object);

        DeadLetter deadLetter = deadLetter(fetch(uri, 0, 100));

        assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.FETCH_FAILED);
        assertThat(deadLetter.detail())
                .startsWith("fetching " + uri + " failed 3 times, lastly with java.io.IOException: ")
                .contains("injected read failure");
        assertThat(retries).containsExactly(2, 3);
    }

    @Test
    void aSchemeWithoutFileSystemFailsAtOnce() {
        DeadLetter deadLetter = deadLetter(fetch(URI.create("https://example.com/video.bin"), 0, 0));

        assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.FETCH_FAILED);
        assertThat(deadLetter.detail())
                .startsWith("fetching https://example.com/video.bin failed once, lastly with")
                .contains("no Flink file system can open https://example.com/video.bin");
        assertThat(retries).isEmpty();
    }

    @Test
    void aNegativeLengthFromTheFileSystemIsAFetchFailedDeadLetter() {
        FlakyFileSystem.reportLength(object, -1);
        URI uri = FlakyFileSystem.uri(object);

        for (Either<PlacedBlob, DeadLetter> outcome : List.of(fetch(uri, 0, 0), fetch(uri, Long.MIN_VALUE, 200))) {
            DeadLetter deadLetter = deadLetter(outcome);
            assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.FETCH_FAILED);
            assertThat(deadLetter.detail())
                    .isEqualTo("fetching " + uri + " failed: its file system reports a negative length, -1 bytes");
        }
        assertThat(retries).isEmpty();
    }

    @Test
    void aLengthBeyondAnArrayIsAFetchFailedDeadLetterNotAnOverflow() {
        long threeGiB = 3L << 30;
        FlakyFileSystem.reportLength(object, threeGiB);
        URI uri = FlakyFileSystem.uri(object);
        ExternalBlobFetcher packingHugeBlobs =
                new ExternalBlobFetcher(new PlacementPolicy(10, 4L << 30, 4L << 30), 4L << 30, THREE_TRIES, List.of());

        DeadLetter deadLetter = deadLetter(fetch(packingHugeBlobs, uri));
        assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.FETCH_FAILED);
        assertThat(deadLetter.detail()).startsWith("fetching " + uri + " failed with java.lang.ArithmeticException: ");
        assertThat(retries).isEmpty();
    }

    @Test
    void aRuntimeExceptionFromTheFileSystemIsAFetchFailedDeadLetter() {
        FlakyFileSystem.failStatusWith(object, new IllegalStateException("status cache corrupt"));
        URI uri = FlakyFileSystem.uri(object);

        DeadLetter deadLetter = deadLetter(fetch(uri, 0, 0));

        assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.FETCH_FAILED);
        assertThat(deadLetter.detail())
                .isEqualTo("fetching " + uri + " failed with java.lang.IllegalStateException: status cache corrupt");
        assertThat(retries).as("a bug is not transient").isEmpty();
    }

    @Test
    void aSymbolicLinkBelowTheAllowedDirectoryIsNotAllowed() throws IOException {
        Path allowed = Files.createDirectories(dir.resolve("allowed"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Path secret = Files.write(outside.resolve("secret"), new byte[] {42});
        Path toFile = Files.createSymbolicLink(allowed.resolve("link"), secret);
        Path toDirectory = Files.createSymbolicLink(allowed.resolve("dir-link"), outside);
        ExternalBlobFetcher confined = confinedTo(allowed);

        DeadLetter throughFile = deadLetter(fetch(confined, toFile.toUri()));
        assertThat(throughFile.code()).isEqualTo(DeadLetterCode.URI_NOT_ALLOWED);
        assertThat(throughFile.detail())
                .isEqualTo(toFile.toUri() + ": expected a regular file, found a symbolic link; no link below an "
                        + "allowed file: prefix is followed");
        DeadLetter throughDirectory =
                deadLetter(fetch(confined, toDirectory.resolve("secret").toUri()));
        assertThat(throughDirectory.code()).isEqualTo(DeadLetterCode.URI_NOT_ALLOWED);
        assertThat(throughDirectory.detail())
                .isEqualTo(toDirectory.resolve("secret").toUri() + ": expected a directory at dir-link below its "
                        + "allowed prefix, found a symbolic link; no link below an allowed file: prefix is followed");
        assertThat(retries).as("a refusal is not retried").isEmpty();
    }

    @Test
    void anAllowedPrefixThatIsASymbolicLinkIsFollowedButALinkBelowItIsNot() throws IOException {
        Path real = Files.createDirectories(dir.resolve("real"));
        Files.write(real.resolve("clip"), new byte[] {1, 2, 3});
        Path allowedThroughLink = Files.createSymbolicLink(dir.resolve("allowed"), real);
        Path inner = Files.createSymbolicLink(real.resolve("inner-link"), real.resolve("clip"));

        ExternalBlobFetcher confined = confinedTo(allowedThroughLink);

        assertThat(placed(fetch(confined, allowedThroughLink.resolve("clip").toUri()))
                        .bytes())
                .containsExactly(1, 2, 3);
        assertThat(deadLetter(fetch(
                                confined,
                                allowedThroughLink.resolve(inner.getFileName()).toUri()))
                        .code())
                .as("a link below the prefix is refused even where it leads inside")
                .isEqualTo(DeadLetterCode.URI_NOT_ALLOWED);
    }

    @Test
    void aDedicatedFileNamesItsLocationAsGivenForTheSinkToOpenAsConfined() throws IOException {
        Path real = Files.createDirectories(dir.resolve("real"));
        Files.write(real.resolve("clip"), content);
        Path allowedThroughLink = Files.createSymbolicLink(dir.resolve("allowed"), real);
        URI location = allowedThroughLink.resolve("clip").toUri();

        PlacedBlob placed = placed(fetch(confinedTo(allowedThroughLink), location));

        assertThat(placed.source()).isEqualTo(new ExternalBytes(location.toString(), 0, 300));
    }

    @Test
    void aFileWithAnotherHardLinkIsNotAllowedBecauseThatLinkMayLieOutside() throws IOException {
        Path allowed = Files.createDirectories(dir.resolve("allowed"));
        Path secret =
                Files.write(Files.createDirectories(dir.resolve("outside")).resolve("secret"), new byte[] {42});
        Path hardLink = Files.createLink(allowed.resolve("hard-link"), secret);

        DeadLetter deadLetter = deadLetter(fetch(confinedTo(allowed), hardLink.toUri()));

        assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.URI_NOT_ALLOWED);
        assertThat(deadLetter.detail())
                .isEqualTo(hardLink.toUri() + " has 2 hard links, expected 1: another name of the same file may lie "
                        + "outside every allowed directory");
    }

    private ExternalBlobFetcher confinedTo(Path allowed) {
        return new ExternalBlobFetcher(
                POLICY, MAX, THREE_TRIES, List.of(allowed.toUri().toString()));
    }

    private Either<PlacedBlob, DeadLetter> fetch(ExternalBlobFetcher from, URI location) {
        return from.fetch(
                new ExternalFetch(record(), location.toString(), 0, 0, ATTRIBUTES),
                (nextTry, wait, failure) -> retries.add(nextTry));
    }

    private static BlobRecord record() {
        return new BlobRecord(null, null, List.of(), "in", 0, 7, null);
    }

    private Either<PlacedBlob, DeadLetter> fetch(URI location, long position, long size) {
        BlobRecord record = new BlobRecord(null, null, List.of(), "in", 0, 7, null);
        return fetcher.fetch(
                new ExternalFetch(record, location.toString(), position, size, ATTRIBUTES),
                (nextTry, wait, failure) -> retries.add(nextTry));
    }

    private static PlacedBlob placed(Either<PlacedBlob, DeadLetter> outcome) {
        assertThat(outcome.isLeft()).as("placed, not %s", outcome).isTrue();
        return outcome.left();
    }

    private static DeadLetter deadLetter(Either<PlacedBlob, DeadLetter> outcome) {
        assertThat(outcome.isRight()).as("dead-lettered, not %s", outcome).isTrue();
        return outcome.right();
    }
}
