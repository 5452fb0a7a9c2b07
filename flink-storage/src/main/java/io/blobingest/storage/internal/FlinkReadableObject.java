package io.blobingest.storage.internal;

import io.blobingest.objectlayer.storage.ReadableObject;

import org.apache.flink.core.fs.ByteBufferReadable;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import java.io.EOFException;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
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

    private final URI location;
    private final FileSystem fileSystem;
    private final Path path;
    private final long length;
    private FSDataInputStream stream;
    private boolean closed;

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
        if (position < 0) {
            throw new IllegalArgumentException(
                    location + ": negative read position " + position);
        }
        if (position > this.length - length) {
            throw new EOFException(
                    location + ": wanted " + length + " bytes at offset " + position
                            + ", the object is " + this.length + " bytes long");
        }
        if (length == 0) {
            return;
        }
        try {
            FSDataInputStream in = openStream();
            if (in instanceof ByteBufferReadable) {
                readPositioned((ByteBufferReadable) in, position, buffer, offset, length);
            } else {
                readAfterSeek(in, position, buffer, offset, length);
            }
        } catch (IOException e) {
            throw IoErrors.withContext(
                    location + ": reading " + length + " bytes at offset " + position + " failed",
                    e);
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
            }
        }
    }
}
