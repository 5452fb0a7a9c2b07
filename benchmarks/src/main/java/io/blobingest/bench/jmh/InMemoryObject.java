package io.blobingest.bench.jmh;

import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.EOFException;

/**
 * A stored object held in a byte array, so that a benchmark measures the reader's own work and
 * not a file system's.
 */
final class InMemoryObject implements ReadableObject {

    private final String location;
    private final byte[] bytes;

    InMemoryObject(String location, byte[] bytes) {
        this.location = location;
        this.bytes = bytes;
    }

    @Override
    public String location() {
        return location;
    }

    @Override
    public long length() {
        return bytes.length;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws EOFException {
        if (position < 0 || position > bytes.length - length) {
            throw new EOFException(location + ": " + length + " bytes at offset " + position
                    + " lie beyond the end of the object (" + bytes.length + " bytes)");
        }
        System.arraycopy(bytes, (int) position, buffer, offset, length);
    }

    @Override
    public void close() {}
}
