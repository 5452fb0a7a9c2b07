package io.blobingest.objectlayer;

import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.objectlayer.storage.ScatterTarget;
import java.io.IOException;
import java.util.List;

/** Passes every call on to another object; a test storage overrides the calls it observes. */
public class ForwardingReadableObject implements ReadableObject {

    private final ReadableObject delegate;

    public ForwardingReadableObject(ReadableObject delegate) {
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
    public void readScattered(long position, List<ScatterTarget> targets) throws IOException {
        delegate.readScattered(position, targets);
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
