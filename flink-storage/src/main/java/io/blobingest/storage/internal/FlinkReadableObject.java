package io.blobingest.storage.internal;

import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.objectlayer.storage.ScatterTarget;

import org.apache.flink.core.fs.ByteBufferReadable;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import java.io.EOFException;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/**
 * One object of a Flink {@link FileSystem}, read with positioned reads on one lazily opened
 * stream. Reads are serialised: the stream has one position.
 *
 * <p>Positioned reads go through {@link ByteBufferReadable#read(long, ByteBuffer)} when the stream
 * offers it (Flink's local and Hadoop/S3 streams do). On S3 that is Hadoop's positioned
 * {@code readFully}, which seeks lazily and so costs one ranged GET. The alternative,
 * {@link FSDataInputStream#seek}, is avoided: Flink's Hadoop stream turns a forward seek of up to
 * 1 MiB into {@code skip()}, which reads the gap through many small GETs.
 */
public final class FlinkReadableObject implements ReadableObject {

    /** The largest byte array the JVM reliably allocates. */
    private static final int MAX_STAGING_LENGTH = Integer.MAX_VALUE - 8;

    private final URI location;
    private final FileSystem fileSystem;
    private final Path path;
    private final long length;
    private FSDataInputStream stream;
    private boolean closed;
    /** Kept across reads: a merged read's staging array is megabytes long. */
    private byte[] staging = new byte[0];

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
    public synchronized void readFully(long position, byte[] buffer, int offset, int length)
            throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        checkWithinObject(position, length, "");
        if (length == 0) {
            return;
        }
        try {
            readRange(openStream(), position, buffer, offset, length);
        } catch (IOException e) {
            throw IoErrors.withContext(
                    location + ": reading " + length + " bytes at offset " + position + " failed",
                    e);
        }
    }

    /**
     * On a distributed file system (S3) one positioned read of the whole span into a staging
     * array, copied out: S3A sizes each GET by the read call that opens it, so target by target
     * would cost a GET per target, and a GET costs far more than a pass over memory. Elsewhere
     * (the local file system) one positioned read per array target, straight into the array.
     */
    @Override
    public synchronized void readScattered(long position, List<ScatterTarget> targets)
            throws IOException {
        long total = ScatterTarget.totalLength(targets);
        String scattered = " (scattered into " + targets.size() + " targets)";
        checkWithinObject(position, total, scattered);
        if (total == 0) {
            return;
        }
        try {
            FSDataInputStream in = openStream();
            if (fileSystem.isDistributedFS() && total <= MAX_STAGING_LENGTH) {
                readStaged(in, position, (int) total, targets);
            } else {
                ScatterTarget.readEach(position, targets,
                        (at, array, offset, length) -> readRange(in, at, array, offset, length));
            }
        } catch (IOException e) {
            throw IoErrors.withContext(
                    location + ": reading " + total + " bytes at offset " + position + scattered
                            + " failed",
                    e);
        }
    }

    private void checkWithinObject(long position, long length, String scattered)
            throws EOFException {
        if (position < 0) {
            throw new IllegalArgumentException(
                    location + ": negative read position " + position);
        }
        if (position > this.length - length) {
            throw new EOFException(
                    location + ": wanted " + length + " bytes at offset " + position + scattered
                            + ", the object is " + this.length + " bytes long");
        }
    }

    private void readStaged(
            FSDataInputStream in, long position, int length, List<ScatterTarget> targets)
            throws IOException {
        if (staging.length < length) {
            staging = new byte[length];
        }
        readRange(in, position, staging, 0, length);
        int at = 0;
        for (ScatterTarget target : targets) {
            if (!target.isHole()) {
                System.arraycopy(
                        staging, at, target.array(), target.offset(), (int) target.length());
            }
            at += (int) target.length();
        }
    }

    private static void readRange(
            FSDataInputStream in, long position, byte[] buffer, int offset, int length)
            throws IOException {
        if (in instanceof ByteBufferReadable) {
            readPositioned((ByteBufferReadable) in, position, buffer, offset, length);
        } else {
            readAfterSeek(in, position, buffer, offset, length);
        }
    }

    private static void readPositioned(
            ByteBufferReadable in, long position, byte[] buffer, int offset, int length)
            throws IOException {
        int done = 0;
        while (done < length) {
            // A fresh buffer per call: Flink's Hadoop stream ignores and keeps the buffer's
            // position, its local stream advances it.
            int n = in.read(position + done, ByteBuffer.wrap(buffer, offset + done, length - done).slice());
            if (n <= 0) {
                throw new EOFException("the object ended at offset " + (position + done));
            }
            done += n;
        }
    }

    private static void readAfterSeek(
            FSDataInputStream in, long position, byte[] buffer, int offset, int length)
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

    private FSDataInputStream openStream() throws IOException {
        if (closed) {
            throw new IOException("the object is closed");
        }
        if (stream == null) {
            stream = fileSystem.open(path);
        }
        return stream;
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        if (stream != null) {
            try {
                stream.close();
            } finally {
                stream = null;
                staging = new byte[0];
            }
        }
    }
}
