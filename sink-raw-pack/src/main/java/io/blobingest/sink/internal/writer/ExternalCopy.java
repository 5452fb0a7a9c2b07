package io.blobingest.sink.internal.writer;

import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalBytes;
import io.blobingest.placement.ExternalCopyException;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.storage.ConfinedFileStorage;
import io.blobingest.storage.ReadThreads;
import io.blobingest.storage.RefusedFileException;
import io.blobingest.storage.RetryPolicy;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.zip.CRC32C;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies a Dedicated blob's bytes from its external object into a sidecar, on the task thread but
 * never past a deadline: the copy of an External blob in ingest mode whose object was too large to
 * fetch. A {@code file:} object is opened as confined as the fetch stage opened it ({@link
 * ConfinedFileStorage}), since a link may have been swapped in below its allowed prefix since.
 * Not thread-safe: one per open blob set.
 */
final class ExternalCopy {

    /** One positioned read of an external object per chunk: on S3 one ranged GET per MiB. */
    private static final int COPY_CHUNK_SIZE = 1024 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(ExternalCopy.class);

    private final RecoverableWriter fs;
    private final RetryPolicy externalReadRetries;
    private final Duration copyTimeout;
    private final Duration stallTimeout;
    private final ReadThreads copyThreads;
    private final SidecarDurability durability;
    private final BlobStorage externalObjects;
    private final CRC32C crc = new CRC32C();

    ExternalCopy(SinkSettings settings, RecoverableWriter fs, ReadThreads copyThreads, SidecarDurability durability) {
        this.fs = fs;
        this.externalReadRetries = settings.externalReadRetries();
        this.copyTimeout = settings.externalCopyTimeout();
        this.stallTimeout = settings.externalCopyStallTimeout();
        this.copyThreads = copyThreads;
        this.durability = durability;
        this.externalObjects = new ConfinedFileStorage(settings.externalAllowedPrefixes());
    }

    /**
     * Streams {@code source} into Dedicated sidecar {@code sidecarId} ({@code sidecar}) of {@code
     * blobSet} and returns the crc32c of
     * what it copied. A try that fails transiently is retried from the start into a fresh
     * in-progress file (the failed one stays hidden, like any failed attempt's), so that the
     * sidecar is one consistent read of the object.
     *
     * <p>The copy runs on the task thread, so a checkpoint barrier waits for it; it is bounded so
     * that the barrier is never held past the checkpoint timeout: every read comes from an {@link
     * ExternalRangeReader} and must arrive within the stall timeout, and the whole copy, every try
     * included, must end within the copy timeout (a try that starts after it fails at once). A try
     * that finds every copy thread still in an earlier read waits for one within that timeout too.
     *
     * @throws ExternalCopyException if the object could not be read (after the tries), ended early,
     *     stalled, the copy ran out of time, or a {@code file:} object was refused ({@code
     *     uri-not-allowed}: {@link ConfinedFileStorage}, which opens it and checks it in one step):
     *     the record is a dead letter, and nothing of the partial copy is ever visible. Other
     *     {@link IOException}s are the sidecar's own writes.
     */
    long copy(ExternalBytes source, long sidecarId, Path sidecar, String blobSet) throws IOException {
        long deadline = System.nanoTime() + copyTimeout.toNanos();
        try {
            return externalReadRetries.run(
                    () -> copyOnce(source, sidecarId, sidecar, blobSet, deadline),
                    (nextTry, wait, failure) -> LOG.warn(
                            "Copying {} bytes at offset {} of {} into sidecar {} of blob set {} failed; try {} of {}"
                                    + " in {} ms: {}",
                            source.length(),
                            source.offset(),
                            source.location(),
                            sidecarId,
                            blobSet,
                            nextTry,
                            externalReadRetries.attempts(),
                            wait.toMillis(),
                            failure.toString()));
        } catch (SourceFailure e) {
            DeadLetterCode code = e.getCause() instanceof RefusedFileException
                    ? DeadLetterCode.URI_NOT_ALLOWED
                    : RetryPolicy.isTransient(e) ? DeadLetterCode.FETCH_FAILED : DeadLetterCode.NOT_FOUND;
            throw new ExternalCopyException(
                    code,
                    "copying " + source.length() + " bytes at offset " + source.offset() + " of " + source.location()
                            + " into a Dedicated sidecar failed: " + e.getMessage(),
                    e);
        }
    }

    private long copyOnce(ExternalBytes source, long sidecarId, Path sidecar, String blobSet, long deadline)
            throws IOException {
        // A retry after the deadline must fail as time up, before it takes (or waits for) a copy
        // thread: the threads of the tries given up at the deadline may not have ended yet.
        if (deadline - System.nanoTime() <= 0) {
            throw new SourceFailure(timeUp(0), null);
        }
        awaitCopyThread(source, deadline);
        String what = "copying " + source.location() + " into sidecar " + sidecarId + " of blob set " + blobSet;
        try (ExternalRangeReader reader =
                new ExternalRangeReader(externalObjects, source, COPY_CHUNK_SIZE, copyThreads, what)) {
            long objectLength = ((ExternalRangeReader.Opened) awaitStep(reader, deadline, 0)).objectLength();
            if (objectLength - source.offset() < source.length()) {
                throw new SourceFailure(new EOFException(source.location() + " is " + objectLength + " bytes long, "
                        + source.length() + " bytes at offset " + source.offset() + " were expected"));
            }
            RecoverableFsDataOutputStream out = fs.open(sidecar);
            try {
                crc.reset();
                for (long copied = 0; copied < source.length(); ) {
                    ExternalRangeReader.Chunk chunk = (ExternalRangeReader.Chunk) awaitStep(reader, deadline, copied);
                    crc.update(chunk.bytes(), 0, chunk.length());
                    out.write(chunk.bytes(), 0, chunk.length());
                    reader.recycle(chunk);
                    copied += chunk.length();
                }
            } catch (IOException | RuntimeException e) {
                SidecarDurability.closeAfterFailure(out, e);
                throw e;
            }
            durability.closeForCommit(sidecarId, source.length(), out);
            return crc.getValue();
        }
    }

    /**
     * Waits, never past {@code deadline}, until a copy thread is free: the threads of earlier tries,
     * or of copies given up by earlier attempts of the task, may still be in reads that ignored
     * their interrupts, and one of them may end any moment.
     */
    private void awaitCopyThread(ExternalBytes source, long deadline) throws IOException {
        try {
            if (copyThreads.awaitRoom(deadline)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the task is cancelled: not the source's fault, no dead letter
            throw new InterruptedIOException(
                    "interrupted while waiting for a copy thread to copy " + source.location());
        }
        throw new SourceFailure(
                timeUp(0) + ", waiting for a copy thread: all " + copyThreads.alive()
                        + " are still in earlier reads that ignored their interrupts: " + copyThreads.describeAlive(),
                null);
    }

    /** The reader's next step, waiting at most the stall timeout and never past {@code deadline}. */
    private ExternalRangeReader.Step awaitStep(ExternalRangeReader reader, long deadline, long copied)
            throws IOException {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
            throw new SourceFailure(timeUp(copied), null);
        }
        long wait = Math.min(remaining, stallTimeout.toNanos());
        ExternalRangeReader.Step step;
        try {
            step = reader.next(wait);
        } catch (IOException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw e; // the task thread is interrupted (cancelled): not the source's fault, no dead letter
            }
            throw new SourceFailure(e);
        }
        if (step == null) {
            throw new SourceFailure(wait < remaining ? stalled(copied) : timeUp(copied), null);
        }
        return step;
    }

    private String stalled(long copied) {
        return "no bytes arrived within " + stallTimeout.toMillis() + " ms ("
                + RawPackSinkOptions.EXTERNAL_COPY_STALL_TIMEOUT.key() + ") after " + copied + " bytes";
    }

    private String timeUp(long copied) {
        return "the copy took longer than " + copyTimeout.toMillis() + " ms ("
                + RawPackSinkOptions.EXTERNAL_COPY_TIMEOUT.key() + "), " + copied + " bytes were copied";
    }

    /** A failure to read the source, as opposed to one of the sidecar's own writes. */
    private static final class SourceFailure extends IOException {
        private static final long serialVersionUID = 1L;

        SourceFailure(String message, Throwable cause) {
            super(message, cause);
        }

        SourceFailure(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
