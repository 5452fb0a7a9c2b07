package io.blobingest.job.internal;

import io.blobingest.job.IngestJobOptions;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.placement.BlobHeaders;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalBytes;
import io.blobingest.placement.ExternalFetch;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import io.blobingest.placement.PlacementPolicy;
import io.blobingest.storage.ConfinedFileStorage;
import io.blobingest.storage.RefusedFileException;
import io.blobingest.storage.RetryPolicy;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.annotation.Internal;
import org.apache.flink.types.Either;

/**
 * Fetches the bytes of an {@code ingest}-mode external blob through Flink's file systems and
 * places them like bytes that came in Kafka, or refuses the record with spec.md section 4's fetch
 * codes, checked in the contract's order: {@code uri-not-allowed} (a {@code file:} object that {@link
 * ConfinedFileStorage} refuses to open), {@code too-large} (a whole object above {@code
 * placement.max-blob-size}), {@code not-found}, {@code bad-range} (the range ends beyond the object),
 * {@code fetch-failed} (anything else, once the transient failures have used up the tries).
 *
 * <p>Each try stats the object (one HEAD on S3; a {@code file:} object is opened, and so checked)
 * and, for a blob of at most the dedicated threshold, reads its range with one positioned read on
 * what it opened: Inline and Packed bytes are held in memory. A larger blob is not read here: it
 * becomes a Dedicated blob that names its {@link ExternalBytes source} by the same location, and
 * the sink streams it into its sidecar, opening it as confined as this does. Messages name the
 * object by its location, which has no query or userinfo ({@link ExternalFetch#location()}).
 *
 * <p>Blocking; thread-safe. The fetch stage calls it on its own threads.
 */
@Internal
public final class ExternalBlobFetcher implements Serializable {

    private static final long serialVersionUID = 1L;

    private final PlacementPolicy placementPolicy;
    private final long maxBlobBytes;
    private final RetryPolicy retries;
    private final ConfinedFileStorage storage;

    /**
     * @param allowedPrefixes {@code external.allowed-prefixes}, to confine {@code file:} objects
     *     ({@link ConfinedFileStorage})
     */
    public ExternalBlobFetcher(
            PlacementPolicy placementPolicy, long maxBlobBytes, RetryPolicy retries, List<String> allowedPrefixes) {
        this.placementPolicy = Objects.requireNonNull(placementPolicy, "placementPolicy");
        this.maxBlobBytes = maxBlobBytes;
        this.retries = Objects.requireNonNull(retries, "retries");
        this.storage = new ConfinedFileStorage(allowedPrefixes);
    }

    /**
     * The placed blob or the dead letter for {@code fetch}; never throws for a failed read, nor for
     * a file system that misbehaves: a {@link RuntimeException} from it, or from what it reports
     * (a negative length, a length no array holds), is a {@code fetch-failed} dead letter, never
     * retried, so that one odd object cannot fail the job again after every restart.
     *
     * @param retryListener told of every try that failed and will be retried
     */
    public Either<PlacedBlob, DeadLetter> fetch(ExternalFetch fetch, RetryPolicy.RetryListener retryListener) {
        AtomicInteger tries = new AtomicInteger(1);
        try {
            URI location = URI.create(fetch.location());
            return retries.run(() -> fetchOnce(fetch, location), (nextTry, wait, failure) -> {
                tries.set(nextTry);
                retryListener.retrying(nextTry, wait, failure);
            });
        } catch (RefusedFileException e) {
            return deadLetter(fetch, DeadLetterCode.URI_NOT_ALLOWED, e.getMessage());
        } catch (FileNotFoundException | NoSuchFileException e) {
            return deadLetter(fetch, DeadLetterCode.NOT_FOUND, e.getMessage());
        } catch (IOException e) {
            return deadLetter(
                    fetch,
                    DeadLetterCode.FETCH_FAILED,
                    "fetching " + fetch.location() + " failed " + (tries.get() == 1 ? "once" : tries.get() + " times")
                            + ", lastly with " + e);
        } catch (RuntimeException e) {
            return deadLetter(fetch, DeadLetterCode.FETCH_FAILED, "fetching " + fetch.location() + " failed with " + e);
        }
    }

    private Either<PlacedBlob, DeadLetter> fetchOnce(ExternalFetch fetch, URI location) throws IOException {
        try (ReadableObject object = storage.open(location)) {
            long objectLength = object.length();
            if (objectLength < 0) {
                return deadLetter(
                        fetch,
                        DeadLetterCode.FETCH_FAILED,
                        "fetching " + fetch.location() + " failed: its file system reports a negative length, "
                                + objectLength + " bytes");
            }
            long offset = fetch.position();
            long length = fetch.size();
            if (fetch.isWholeObject()) {
                if (objectLength > maxBlobBytes) {
                    return deadLetter(
                            fetch,
                            DeadLetterCode.TOO_LARGE,
                            fetch.location() + " is "
                                    + objectLength + " bytes, the maximum is " + maxBlobBytes + " bytes ("
                                    + IngestJobOptions.MAX_BLOB_SIZE.key() + ")");
                }
                length = objectLength;
            } else if (Long.compareUnsigned(offset, objectLength) > 0
                    || Long.compareUnsigned(length, objectLength - offset) > 0) {
                return deadLetter(
                        fetch,
                        DeadLetterCode.BAD_RANGE,
                        BlobHeaders.POSITION + " "
                                + Long.toUnsignedString(offset) + " + " + BlobHeaders.SIZE + " "
                                + Long.toUnsignedString(length)
                                + " ends beyond " + fetch.location() + ", which is " + objectLength + " bytes long");
            }
            Placement placement = placementPolicy.place(length);
            if (placement == Placement.DEDICATED) {
                return Either.Left(PlacedBlob.copiedFrom(
                        new ExternalBytes(fetch.location(), offset, length), fetch.record(), fetch.attributes()));
            }
            byte[] bytes = new byte[Math.toIntExact(length)];
            object.readFully(offset, bytes, 0, bytes.length);
            return Either.Left(new PlacedBlob(fetch.record(), placement, bytes, fetch.attributes(), null));
        }
    }

    private static Either<PlacedBlob, DeadLetter> deadLetter(ExternalFetch fetch, DeadLetterCode code, String detail) {
        return Either.Right(new DeadLetter(fetch.record(), code, detail));
    }
}
