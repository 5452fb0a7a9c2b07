package io.blobingest.storage;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.Serializable;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.core.fs.UnsupportedFileSystemSchemeException;

/**
 * How a read of an object is retried: at most {@code attempts} tries in all, waiting {@code
 * backoff} before the second, then twice as long before each further one. Only {@linkplain
 * #isTransient transient} failures are retried.
 *
 * @param attempts tries in all, at least 1 (1: no retry)
 * @param backoff the wait before the second try, at least 0
 */
@PublicEvolving
public record RetryPolicy(int attempts, Duration backoff) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The wait doubles at most this many times: 2^10 times the backoff is the longest wait. */
    private static final int MAX_DOUBLINGS = 10;

    public RetryPolicy {
        Objects.requireNonNull(backoff, "backoff");
        if (attempts < 1) {
            throw new IllegalArgumentException("retry attempts must be >= 1, found " + attempts);
        }
        if (backoff.isNegative()) {
            throw new IllegalArgumentException("retry backoff must be >= 0, found " + backoff);
        }
    }

    /** One try of an I/O operation. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run() throws IOException;
    }

    /** Told of every failed try that will be retried, before the wait. */
    @FunctionalInterface
    public interface RetryListener {
        void retrying(int nextAttempt, Duration wait, IOException failure);
    }

    /**
     * False for failures that another try cannot mend: the object or file system does not exist
     * ({@link FileNotFoundException}, {@link NoSuchFileException}, {@link
     * UnsupportedFileSystemSchemeException}), access is denied ({@link AccessDeniedException}) or
     * a {@code file:} object is not allowed ({@link RefusedFileException}), anywhere in the cause
     * chain. Everything else (connection resets, timeouts, an object that
     * changed while it was read) may be transient.
     */
    public static boolean isTransient(IOException failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof FileNotFoundException
                    || t instanceof NoSuchFileException
                    || t instanceof AccessDeniedException
                    || t instanceof RefusedFileException
                    || t instanceof UnsupportedFileSystemSchemeException) {
                return false;
            }
        }
        return true;
    }

    /** The wait before try {@code attempt} (2 or more). */
    public Duration waitBefore(int attempt) {
        if (attempt < 2) {
            throw new IllegalArgumentException("only tries after the first wait, found try " + attempt);
        }
        return backoff.multipliedBy(1L << Math.min(attempt - 2, MAX_DOUBLINGS));
    }

    /**
     * Runs {@code attempt} until it succeeds, fails permanently, the tries are used up, or the
     * thread is interrupted. Then the last failure is thrown, with the earlier ones suppressed.
     */
    public <T> T run(Attempt<T> attempt, RetryListener listener) throws IOException {
        List<IOException> earlier = new ArrayList<>();
        for (int tried = 1; ; tried++) {
            try {
                return attempt.run();
            } catch (IOException failure) {
                if (tried >= attempts
                        || !isTransient(failure)
                        || Thread.currentThread().isInterrupted()) {
                    earlier.forEach(failure::addSuppressed);
                    throw failure;
                }
                earlier.add(failure);
                Duration wait = waitBefore(tried + 1);
                listener.retrying(tried + 1, wait, failure);
                sleep(wait, failure);
            }
        }
    }

    private static void sleep(Duration wait, IOException failure) throws InterruptedIOException {
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while waiting to retry");
            interrupted.addSuppressed(failure);
            throw interrupted;
        }
    }
}
