package io.blobingest.objectlayer;

import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;

/** Passes every call on to another object; a test storage overrides the calls it observes. */
class ForwardingReadableObject implements ReadableObject {

    private final ReadableObject delegate;

    ForwardingReadableObject(ReadableObject delegate) {
        this.delegate = delegate;
    }

    @Override
    public String location() {
        return delegate.location();
    }

    @Override
    public long length() throws IOException {
        return delegate.length();
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
        delegate.readFully(position, buffer, offset, length);
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
