package io.blobingest.bench.internal;

import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadTuning;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.objectlayer.storage.ScatterTarget;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Passes every call on and counts the I/O requests: each positioned read of an object, and each
 * scattered read as one (on S3 it is one GET).
 */
final class CountingBlobStorage implements BlobStorage {

    private final BlobStorage delegate;
    private final AtomicLong reads = new AtomicLong();

    CountingBlobStorage(BlobStorage delegate) {
        this.delegate = delegate;
    }

    @Override
    public ReadableObject open(URI location) throws IOException {
        ReadableObject object = delegate.open(location);
        return new ReadableObject() {
            @Override
            public String location() {
                return object.location();
            }

            @Override
            public long length() throws IOException {
                return object.length();
            }

            @Override
            public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
                reads.incrementAndGet();
                object.readFully(position, buffer, offset, length);
            }

            @Override
            public void readScattered(long position, List<ScatterTarget> targets) throws IOException {
                reads.incrementAndGet();
                object.readScattered(position, targets);
            }

            @Override
            public void close() throws IOException {
                object.close();
            }
        };
    }

    /** The delegate's: counting changes nothing about how its objects should be read. */
    @Override
    public ReadTuning readTuning(URI location) {
        return delegate.readTuning(location);
    }

    /** Reads so far, and starts counting from zero. */
    long takeReads() {
        return reads.getAndSet(0);
    }
}
