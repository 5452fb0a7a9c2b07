package io.blobingest.sink.internal.sharing;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.security.MessageDigest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.flink.annotation.Internal;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;

/**
 * Computes the {@link ContentId}s of a writer's shareable blobs on a thread of its own, so that the
 * task thread places one blob while the next one is hashed.
 *
 * <p>Why: exact sharing must know a blob's SHA-256 before it decides to store or share it, and on
 * the task thread the hash was a third on top of the data path's CPU (0.7-0.8 CPU s per GB,
 * docs/benchmarks.md), paid in series with the blob's fetch and write. The writer hands each
 * shareable blob here as it arrives and places it when the next one arrives (or at a flush): one
 * blob ahead, in input order.
 *
 * <p>Hashing is CPU work on bytes in memory, bounded by the largest record (48 MiB: about 40 ms);
 * it reads no file and waits for nothing, so the task thread's wait for it is bounded too. Only the
 * task thread calls this class; the digest is confined to the hashing thread.
 */
@Internal
public final class ContentHashing implements AutoCloseable {

    private final ExecutorService thread;
    private final MessageDigest sha256 = ContentId.newDigest();

    /** @param poolName the name of the daemon thread's pool */
    public ContentHashing(String poolName) {
        this.thread = Executors.newSingleThreadExecutor(new ExecutorThreadFactory(poolName));
    }

    /** Starts hashing {@code bytes}, after every blob handed in before. */
    public Future<ContentId> hash(byte[] bytes) {
        return CompletableFuture.supplyAsync(() -> ContentId.of(bytes, sha256), thread);
    }

    /** The identity {@code hashing} computed. */
    public static ContentId await(Future<ContentId> hashing) throws IOException {
        try {
            return hashing.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a blob's SHA-256");
        } catch (ExecutionException e) {
            throw new IllegalStateException("hashing a blob failed", e.getCause());
        }
    }

    /** Stops the thread; a hash in flight ends on its own (CPU only, about 40 ms at most). */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
