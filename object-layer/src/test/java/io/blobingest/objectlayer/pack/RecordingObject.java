package io.blobingest.objectlayer.pack;

import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.EOFException;
import java.util.ArrayList;
import java.util.List;

/** An in-memory {@link ReadableObject} that records every read, to assert how a reader plans. */
final class RecordingObject implements ReadableObject {

    /** One {@code readFully} call: {@code length} bytes from {@code position}. */
    record Read(long position, int length) {}

    private final String location;
    private final byte[] bytes;
    private final List<Read> reads = new ArrayList<>();

    RecordingObject(String location, byte[] bytes) {
        this.location = location;
        this.bytes = bytes.clone();
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
        reads.add(new Read(position, length));
        if (position < 0 || position + length > bytes.length) {
            throw new EOFException(location + ": wanted " + length + " bytes at offset " + position
                    + ", the object ends at " + bytes.length);
        }
        System.arraycopy(bytes, (int) position, buffer, offset, length);
    }

    @Override
    public void close() {}

    List<Read> reads() {
        return List.copyOf(reads);
    }
}
