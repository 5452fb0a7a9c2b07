package io.blobingest.sink.manifest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import org.apache.flink.core.fs.FSDataInputStream;

/**
 * A read-only {@link SeekableByteChannel} over a Flink {@link FSDataInputStream}, so that Arrow's
 * file reader (which reads the footer first) works on any Flink file system, S3 included.
 */
final class FlinkFileChannel implements SeekableByteChannel {

    private final FSDataInputStream in;
    private final long size;
    private long position;
    private boolean open = true;

    FlinkFileChannel(FSDataInputStream in, long size) {
        this.in = in;
        this.size = size;
    }

    @Override
    public int read(ByteBuffer target) throws IOException {
        ensureOpen();
        if (position >= size) {
            return -1;
        }
        if (in.getPos() != position) {
            in.seek(position);
        }
        int wanted = (int) Math.min(target.remaining(), size - position);
        int n;
        if (target.hasArray()) {
            n = in.read(target.array(), target.arrayOffset() + target.position(), wanted);
            if (n > 0) {
                target.position(target.position() + n);
            }
        } else {
            byte[] chunk = new byte[wanted];
            n = in.read(chunk, 0, wanted);
            if (n > 0) {
                target.put(chunk, 0, n);
            }
        }
        if (n > 0) {
            position += n;
        }
        return n;
    }

    @Override
    public int write(ByteBuffer source) {
        throw new NonWritableChannelException();
    }

    @Override
    public long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        position = newPosition;
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long newSize) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        if (open) {
            open = false;
            in.close();
        }
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }
}
