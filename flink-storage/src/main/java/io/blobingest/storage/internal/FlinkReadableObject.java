package io.blobingest.storage.internal;

import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.objectlayer.storage.ScatterTarget;
import java.io.EOFException;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.ByteBufferReadable;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One object of a Flink {@link FileSystem}, read with positioned reads on lazily opened streams.
 * A stream has one position, so each read takes a stream of its own: an idle one if there is one,
 * else a newly opened one (on S3 one more HEAD). Reads from several threads run at once, each on
 * its own stream (the Object Layer keeps an object store's reads of one object in flight
 * together); reads one after the other reuse one stream. An idle stream holds no connection: it is
 * unbuffered when its read is done ({@link HadoopStreams#unbuffer}), so a batch may keep more objects
 * open than the S3 client has connections.
 *
 * <p>Positioned reads go through {@link ByteBufferReadable#read(long, ByteBuffer)} when the stream
 * offers it (Flink's local and Hadoop/S3 streams do). On S3 that is Hadoop's positioned
 * {@code readFully}, which seeks lazily and so costs one ranged GET. The alternative,
 * {@link FSDataInputStream#seek}, is avoided: Flink's Hadoop stream turns a forward seek of up to
 * 1 MiB into {@code skip()}, which reads the gap through many small GETs.
 */
@Internal
public final class FlinkReadableObject implements ReadableObject {

    private static final Logger LOG = LoggerFactory.getLogger(FlinkReadableObject.class);

    /** The largest byte array the JVM reliably allocates. */
    private static final int MAX_STAGING_LENGTH = Integer.MAX_VALUE - 8;

    private final URI location;
    private final FileSystem fileSystem;
    private final Path path;
    private final long length;
    /** Streams no read is using. Guarded by {@code this}, as {@code closed} is. */
    private final Deque<Stream> idle = new ArrayDeque<>();

    private boolean closed;

    /** An open stream and the staging array kept with it: a merged read's is megabytes long. */
    private static final class Stream {
        final FSDataInputStream in;
        byte[] staging = new byte[0];

        Stream(FSDataInputStream in) {
            this.in = in;
        }
    }

    public FlinkReadableObject(URI location, FileSystem fileSystem, Path path, long length) {
        this.location = Objects.requireNonNull(location, "location");
        this.fileSystem = Objects.requireNonNull(fileSystem, "fileSystem");
        this.path = Objects.requireNonNull(path, "path");
        this.length = length;
    }

    @Override
    public String location() {
        return location.toString();
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        checkWithinObject(position, length, "");
        if (length == 0) {
            return;
        }
        try {
            Stream stream = acquire();
            try {
                readRange(stream.in, position, buffer, offset, length);
            } finally {
                release(stream);
            }
        } catch (IOException e) {
            throw IoErrors.withContext(
                    location + ": reading " + length + " bytes at offset " + position + " failed", e);
        }
    }

    /**
     * On a distributed file system (S3) one positioned read of the whole span into a staging
     * array, copied out: S3A sizes each GET by the read call that opens it, so target by target
     * would cost a GET per target, and a GET costs far more than a pass over memory. Elsewhere
     * (the local file system) one positioned read per array target, straight into the array.
     */
    @Override
    public void readScattered(long position, List<ScatterTarget> targets) throws IOException {
        long total = ScatterTarget.totalLength(targets);
        String scattered = " (scattered into " + targets.size() + " targets)";
        checkWithinObject(position, total, scattered);
        if (total == 0) {
            return;
        }
        try {
            Stream stream = acquire();
            try {
                if (fileSystem.isDistributedFS() && total <= MAX_STAGING_LENGTH) {
                    readStaged(stream, position, (int) total, targets);
                } else {
                    ScatterTarget.readEach(
                            position,
                            targets,
                            (at, array, offset, length) -> readRange(stream.in, at, array, offset, length));
                }
            } finally {
                release(stream);
            }
        } catch (IOException e) {
            throw IoErrors.withContext(
                    location + ": reading " + total + " bytes at offset " + position + scattered + " failed", e);
        }
    }

    private void checkWithinObject(long position, long length, String scattered) throws EOFException {
        checkWithinObject(location.toString(), this.length, position, length, scattered);
    }

    /**
     * Refuses a read of {@code length} bytes at {@code position} that does not lie within an object
     * of {@code objectLength} bytes, before any I/O.
     *
     * @param scattered how the read is split, for the message; empty for one target
     */
    static void checkWithinObject(String location, long objectLength, long position, long length, String scattered)
            throws EOFException {
        if (position < 0) {
            throw new IllegalArgumentException(location + ": negative read position " + position);
        }
        if (position > objectLength - length) {
            throw new EOFException(location + ": wanted " + length + " bytes at offset " + position + scattered
                    + ", the object is " + objectLength + " bytes long");
        }
    }

    private static void readStaged(Stream stream, long position, int length, List<ScatterTarget> targets)
            throws IOException {
        if (stream.staging.length < length) {
            stream.staging = new byte[length];
        }
        byte[] staging = stream.staging;
        readRange(stream.in, position, staging, 0, length);
        int at = 0;
        for (ScatterTarget target : targets) {
            if (!target.isHole()) {
                System.arraycopy(staging, at, target.array(), target.offset(), (int) target.length());
            }
            at += (int) target.length();
        }
    }

    private static void readRange(FSDataInputStream in, long position, byte[] buffer, int offset, int length)
            throws IOException {
        if (in instanceof ByteBufferReadable) {
            readPositioned((ByteBufferReadable) in, position, buffer, offset, length);
        } else {
            readAfterSeek(in, position, buffer, offset, length);
        }
    }

    private static void readPositioned(ByteBufferReadable in, long position, byte[] buffer, int offset, int length)
            throws IOException {
        int done = 0;
        while (done < length) {
            // A fresh buffer per call: Flink's Hadoop stream ignores and keeps the buffer's
            // position, its local stream advances it.
            int n = in.read(
                    position + done,
                    ByteBuffer.wrap(buffer, offset + done, length - done).slice());
            if (n <= 0) {
                throw new EOFException("the object ended at offset " + (position + done));
            }
            done += n;
        }
    }

    private static void readAfterSeek(FSDataInputStream in, long position, byte[] buffer, int offset, int length)
            throws IOException {
        in.seek(position);
        int done = 0;
        while (done < length) {
            int n = in.read(buffer, offset + done, length - done);
            if (n < 0) {
                throw new EOFException("the object ended at offset " + (position + done));
            }
            done += n;
        }
    }

    /** An idle stream, or a newly opened one. */
    private Stream acquire() throws IOException {
        synchronized (this) {
            if (closed) {
                throw new IOException("the object is closed");
            }
            Stream stream = idle.pollFirst();
            if (stream != null) {
                return stream;
            }
        }
        FSDataInputStream in = fileSystem.open(path);
        try {
            HadoopStreams.readExactRanges(in);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
        return new Stream(in);
    }

    /**
     * Keeps the stream for the next read, unbuffered ({@link HadoopStreams#unbuffer}: on S3 its
     * connection goes back to the pool), or closes it if the object was closed meanwhile or it
     * cannot be unbuffered.
     */
    private void release(Stream stream) throws IOException {
        try {
            HadoopStreams.unbuffer(stream.in);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Closing a stream of {} instead of keeping it: unbuffering it failed", location, e);
            stream.in.close();
            return;
        }
        synchronized (this) {
            if (!closed) {
                idle.addFirst(stream);
                return;
            }
        }
        stream.in.close();
    }

    @Override
    public void close() throws IOException {
        List<Stream> streams;
        synchronized (this) {
            closed = true;
            streams = new ArrayList<>(idle);
            idle.clear();
        }
        IOException failure = null;
        for (Stream stream : streams) {
            try {
                stream.in.close();
            } catch (IOException e) {
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
}
