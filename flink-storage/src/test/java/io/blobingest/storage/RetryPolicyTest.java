package io.blobingest.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.core.fs.UnsupportedFileSystemSchemeException;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private static final RetryPolicy THREE_TRIES = new RetryPolicy(3, Duration.ZERO);

    private final List<Integer> retried = new ArrayList<>();

    @Test
    void aTransientFailureIsRetriedUntilTheAttemptSucceeds() throws IOException {
        AtomicInteger tries = new AtomicInteger();

        String result = THREE_TRIES.run(
                () -> {
                    if (tries.incrementAndGet() < 3) {
                        throw new IOException("connection reset");
                    }
                    return "bytes";
                },
                (next, wait, failure) -> retried.add(next));

        assertThat(result).isEqualTo("bytes");
        assertThat(retried).containsExactly(2, 3);
    }

    @Test
    void afterTheLastTryTheLastFailureIsThrownWithTheEarlierOnesSuppressed() {
        AtomicInteger tries = new AtomicInteger();

        assertThatThrownBy(() -> THREE_TRIES.run(
                        () -> {
                            throw new IOException("reset " + tries.incrementAndGet());
                        },
                        (next, wait, failure) -> retried.add(next)))
                .hasMessage("reset 3")
                .satisfies(e -> assertThat(e.getSuppressed())
                        .extracting(Throwable::getMessage)
                        .containsExactly("reset 1", "reset 2"));
        assertThat(retried).containsExactly(2, 3);
    }

    @Test
    void aPermanentFailureIsNotRetried() {
        AtomicInteger tries = new AtomicInteger();

        assertThatThrownBy(() -> THREE_TRIES.run(
                        () -> {
                            tries.incrementAndGet();
                            throw new FileNotFoundException("gone");
                        },
                        (next, wait, failure) -> retried.add(next)))
                .isInstanceOf(FileNotFoundException.class);
        assertThat(tries).hasValue(1);
        assertThat(retried).isEmpty();
    }

    @Test
    void missingObjectsUnknownSchemesDeniedAccessAndRefusedFilesArePermanentAnywhereInTheCauseChain() {
        assertThat(RetryPolicy.isTransient(
                        new IOException("no file system", new UnsupportedFileSystemSchemeException("http"))))
                .isFalse();
        assertThat(RetryPolicy.isTransient(new AccessDeniedException("s3a://b/k")))
                .isFalse();
        assertThat(RetryPolicy.isTransient(new IOException("wrapped", new FileNotFoundException("x"))))
                .isFalse();
        assertThat(RetryPolicy.isTransient(new IOException("wrapped", new RefusedFileException("file:/a/b"))))
                .isFalse();
        assertThat(RetryPolicy.isTransient(new EOFException("object shrank"))).isTrue();
        assertThat(RetryPolicy.isTransient(new IOException("timeout"))).isTrue();
    }

    @Test
    void theWaitDoublesBeforeEachFurtherTryUpToAThousandTimesTheBackoff() {
        RetryPolicy policy = new RetryPolicy(20, Duration.ofMillis(100));

        assertThat(policy.waitBefore(2)).isEqualTo(Duration.ofMillis(100));
        assertThat(policy.waitBefore(3)).isEqualTo(Duration.ofMillis(200));
        assertThat(policy.waitBefore(4)).isEqualTo(Duration.ofMillis(400));
        assertThat(policy.waitBefore(12)).isEqualTo(Duration.ofMillis(102_400));
        assertThat(policy.waitBefore(20)).isEqualTo(Duration.ofMillis(102_400));
    }

    @Test
    void anInterruptedThreadStopsRetrying() {
        AtomicInteger tries = new AtomicInteger();
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> THREE_TRIES.run(
                            () -> {
                                tries.incrementAndGet();
                                throw new IOException("reset");
                            },
                            (next, wait, failure) -> retried.add(next)))
                    .hasMessage("reset");
        } finally {
            Thread.interrupted();
        }
        assertThat(tries).hasValue(1);
    }

    @Test
    void rejectsFewerThanOneAttemptAndANegativeBackoff() {
        assertThatThrownBy(() -> new RetryPolicy(0, Duration.ZERO)).hasMessage("retry attempts must be >= 1, found 0");
        assertThatThrownBy(() -> new RetryPolicy(1, Duration.ofMillis(-1)))
                .hasMessage("retry backoff must be >= 0, found PT-0.001S");
    }
}
