package io.blobingest.sink.internal.writer;

import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.placement.ExternalBytes;
import io.blobingest.storage.ReadThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads the byte range of an external object on a thread of its own ({@link ReadThreads}), a chunk
 * at a time and at most two chunks ahead, so that the writer, on the task thread, waits for each
 * step with a deadline instead of blocking in a read that may never return. The reading thread
 * also opens the object (reads its status: one HEAD on S3) and closes it, so a call that hangs
 * blocks only that thread. Memory: two chunk buffers, recycled by {@link #recycle}.
 *
 * <p>{@link #close()} interrupts the reading thread; one that ignores the interrupt keeps counting
 * against its {@link ReadThreads} until it ends.
 */
final class ExternalRangeReader implements AutoCloseable {

    /** What the reading thread hands over: the object's length first, then the chunks in order. */
    sealed interface Step permits Opened, Chunk {}

    /** The object's length, as its status reports it. */
    record Opened(long objectLength) implements Step {}

    /** The next {@code length} bytes of the range, at the start of {@code bytes}. */
    record Chunk(byte[] bytes, int length) implements Step {}

    private record Failed(IOException failure) {}

    private static final int BUFFERS = 2;

    /** Room for the length, a chunk per buffer and a failure: the reading thread never waits to fail. */
    private final BlockingQueue<Object> steps = new ArrayBlockingQueue<>(BUFFERS + 2);

    private final BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(BUFFERS);
    private final String what;
    private final Thread thread;

    /**
     * Starts reading {@code source} at once.
     *
     * @param what the read, for people: names the object by its location only
     * @throws IllegalStateException if {@code threads} has no room
     */
    ExternalRangeReader(BlobStorage storage, ExternalBytes source, int chunkSize, ReadThreads threads, String what) {
        int bufferSize = (int) Math.max(1, Math.min(chunkSize, source.length()));
        for (int i = 0; i < BUFFERS; i++) {
            free.add(new byte[bufferSize]);
        }
        this.what = what;
        this.thread = threads.start(what, () -> read(storage, source));
    }

    private void read(BlobStorage storage, ExternalBytes source) {
        try (ReadableObject object = storage.open(URI.create(source.location()))) {
            steps.put(new Opened(object.length()));
            if (object.length() - source.offset() < source.length()) {
                return; // the writer sees the length and refuses the object
            }
            for (long read = 0; read < source.length(); ) {
                byte[] buffer = free.take();
                int length = (int) Math.min(buffer.length, source.length() - read);
                object.readFully(source.offset() + read, buffer, 0, length);
                steps.put(new Chunk(buffer, length));
                read += length;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the writer gave up: nobody waits for the rest
        } catch (IOException e) {
            steps.offer(new Failed(e));
        } catch (RuntimeException e) {
            steps.offer(new Failed(new IOException(source.location() + ": reading failed with " + e, e)));
        }
    }

    /**
     * The next step, or null if none came within {@code timeoutNanos}.
     *
     * @throws IOException the reading thread's failure
     */
    Step next(long timeoutNanos) throws IOException {
        Object step;
        try {
            step = steps.poll(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while " + what);
        }
        if (step instanceof Failed failed) {
            throw failed.failure();
        }
        return (Step) step;
    }

    /** Gives a chunk's buffer back for the chunks to come. */
    void recycle(Chunk chunk) {
        free.offer(chunk.bytes());
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
