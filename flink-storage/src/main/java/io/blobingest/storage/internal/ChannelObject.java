package io.blobingest.storage.internal;

import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * A file read through the channel it was opened as, never opened again by name: what was checked
 * when it was opened is what every read gets. The channel has one position, so reads take turns;
 * its users read one object from one thread at a time.
 */
@Internal
public final class ChannelObject implements ReadableObject {

    private final String location;
    private final SeekableByteChannel channel;
    private final long length;

    /** Takes over {@code channel}: closing this object closes it. */
    public ChannelObject(String location, SeekableByteChannel channel) throws IOException {
        this.location = Objects.requireNonNull(location, "location");
        this.channel = Objects.requireNonNull(channel, "channel");
        this.length = channel.size();
    }

    @Override
    public String location() {
        return location;
    }

    /** The length when the file was opened, as the status of any other object is read once. */
    @Override
    public long length() {
        return length;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        FlinkReadableObject.checkWithinObject(location, this.length, position, length, "");
        ByteBuffer target = ByteBuffer.wrap(buffer, offset, length);
        try {
            synchronized (channel) {
                channel.position(position);
                while (target.hasRemaining()) {
                    if (channel.read(target) < 0) {
                        throw new EOFException("the object ended at offset " + (position + target.position() - offset));
                    }
                }
            }
        } catch (IOException e) {
            throw IoErrors.withContext(
                    location + ": reading " + length + " bytes at offset " + position + " failed", e);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
