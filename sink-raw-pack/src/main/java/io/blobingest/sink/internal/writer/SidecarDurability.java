package io.blobingest.sink.internal.writer;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;

/**
 * Where a writer's sidecars are made durable: on the task thread, or, on a local file system, on a
 * thread of its own while the task goes on writing.
 *
 * <p>Why: on local disk a sidecar is durable once {@code closeForCommit} has forced it ({@code
 * fsync}). Done on the task thread, a checkpoint barrier waited for the fsync of every byte of the
 * open pack written since the last checkpoint (200-480 ms per 250-400 MB pack on the bench's
 * frames), and every Dedicated blob stopped the task for the fsync of its own file. In the
 * background:
 *
 * <ul>
 *   <li>the open pack is forced every {@link #PACK_SYNC_BYTES} written ({@code FileChannel.force}
 *       runs beside the task's writes to the same file), so the fsync that closes it at a
 *       checkpoint finds at most that much left;
 *   <li>a Dedicated sidecar, fully written, is closed for commit there, at most {@link
 *       #MAX_PENDING_CLOSES} at a time; the set collects them, in the order they were written,
 *       before it closes its pack, snapshots or seals.
 * </ul>
 *
 * <p>Nothing is committed earlier or differently: the set still holds a sidecar only once its
 * {@code closeForCommit} returned, and a failure there fails the set's seal or snapshot (so the
 * checkpoint, and the job fails over) instead of the blob's {@code add}. The background thread is
 * never interrupted: an interrupt during {@code FileChannel.force} would close the channel under the
 * task's writes. Other file systems (S3: a sync would upload a part) keep everything on the task
 * thread.
 *
 * <p>Only the task thread calls this class.
 */
final class SidecarDurability implements AutoCloseable {

    /** Bytes of an open pack written between two background forces. */
    static final long PACK_SYNC_BYTES = 32L * 1024 * 1024;

    /** Dedicated sidecars whose close may be in flight at once; the next waits for the oldest. */
    static final int MAX_PENDING_CLOSES = 16;

    private final ExecutorService thread;
    private final ArrayDeque<PendingClose> pendingCloses = new ArrayDeque<>();
    private long packBytesSinceSync;
    private Future<?> packSync;

    private SidecarDurability(ExecutorService thread) {
        this.thread = thread;
    }

    /** Everything on the task thread, as the file system's streams do it. */
    static SidecarDurability onTaskThread() {
        return new SidecarDurability(null);
    }

    /** Forces and closes on a daemon thread of pool {@code poolName}; for local file systems only. */
    static SidecarDurability inBackground(String poolName) {
        return new SidecarDurability(Executors.newSingleThreadExecutor(new ExecutorThreadFactory(poolName)));
    }

    /** {@code bytes} more were written to the open pack {@code stream}. */
    void packWritten(RecoverableFsDataOutputStream stream, long bytes) throws IOException {
        if (thread == null) {
            return;
        }
        packBytesSinceSync += bytes;
        if (packBytesSinceSync < PACK_SYNC_BYTES || (packSync != null && !packSync.isDone())) {
            return;
        }
        awaitPackSync();
        packSync = thread.submit(() -> {
            stream.sync();
            return null;
        });
    }

    /** Waits for the open pack's force in flight: call before the pack is persisted, closed or released. */
    void awaitPackSync() throws IOException {
        packBytesSinceSync = 0;
        if (packSync == null) {
            return;
        }
        Future<?> inFlight = packSync;
        packSync = null;
        await(inFlight, "forcing an open pack to disk");
    }

    /**
     * Closes fully written Dedicated sidecar {@code sidecarId} for commit: at once on the task
     * thread, else in the background; {@link #awaitClosed} returns it either way.
     */
    void closeForCommit(long sidecarId, long length, RecoverableFsDataOutputStream stream) throws IOException {
        if (thread == null) {
            try {
                pendingCloses.add(new PendingClose(
                        sidecarId, stream, CompletableFuture.completedFuture(closed(stream, sidecarId, length))));
            } catch (IOException | RuntimeException e) {
                closeAfterFailure(stream, e);
                throw e;
            }
            return;
        }
        if (pendingCloses.size() >= MAX_PENDING_CLOSES) {
            PendingClose oldest = pendingCloses.peek();
            try {
                await(oldest.close, oldest.what());
            } catch (IOException e) {
                closeAfterFailure(stream, e);
                throw e;
            }
        }
        pendingCloses.add(new PendingClose(sidecarId, stream, thread.submit(() -> closed(stream, sidecarId, length))));
    }

    /**
     * The Dedicated sidecars closed for commit since the last call, in the order they were written,
     * once every close has ended.
     *
     * @throws IOException the first close that failed; the sidecars after it are released, not
     *     returned (their set is never committed)
     */
    List<PendingSidecar> awaitClosed() throws IOException {
        List<PendingSidecar> closed = new ArrayList<>(pendingCloses.size());
        while (!pendingCloses.isEmpty()) {
            PendingClose next = pendingCloses.remove();
            try {
                closed.add(await(next.close, next.what()));
            } catch (IOException e) {
                closeAfterFailure(next.stream, e);
                try {
                    release();
                } catch (IOException others) {
                    e.addSuppressed(others);
                }
                throw e;
            }
        }
        return closed;
    }

    /**
     * Waits for every background step, then releases the streams whose close failed; their files
     * stay hidden. For a set that is abandoned, or whose seal failed.
     *
     * @throws IOException the first step that failed, the others suppressed in it
     */
    void release() throws IOException {
        IOException failure = null;
        try {
            awaitPackSync();
        } catch (IOException e) {
            failure = e;
        }
        while (!pendingCloses.isEmpty()) {
            PendingClose pending = pendingCloses.remove();
            try {
                await(pending.close, pending.what());
            } catch (IOException e) {
                closeAfterFailure(pending.stream, e);
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Stops the thread once its queued steps end; never interrupts it. */
    @Override
    public void close() {
        if (thread != null) {
            thread.shutdown();
        }
    }

    private static PendingSidecar closed(RecoverableFsDataOutputStream stream, long sidecarId, long length)
            throws IOException {
        RecoverableFsDataOutputStream.Committer committer = stream.closeForCommit();
        return new PendingSidecar(sidecarId, SidecarKind.DEDICATED, length, committer.getRecoverable());
    }

    private static <T> T await(Future<T> step, String what) throws IOException {
        try {
            return step.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for " + what);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException failure) {
                throw new IOException(what + " failed: " + failure.getMessage(), failure);
            }
            throw new IOException(what + " failed", e.getCause());
        }
    }

    /** Releases {@code stream} after {@code failure}; a failure to release it is suppressed in that one. */
    static void closeAfterFailure(RecoverableFsDataOutputStream stream, Exception failure) {
        try {
            stream.close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private record PendingClose(long sidecarId, RecoverableFsDataOutputStream stream, Future<PendingSidecar> close) {

        String what() {
            return "closing Dedicated sidecar " + sidecarId + " for commit";
        }
    }
}
