package io.blobingest.objectlayer;

import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.objectlayer.storage.ScatterTarget;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/** A storage that logs every open, length and read it passes on, in the order they happen. */
final class RecordingBlobStorage implements BlobStorage {

    enum Op {
        OPEN,
        LENGTH,
        READ
    }

    /** One storage access; {@code offset} and {@code length} are set for reads only. */
    record Access(Op op, URI location, long offset, long length) {
        long end() {
            return offset + length;
        }

        @Override
        public String toString() {
            return op == Op.READ ? op + " " + location + " [" + offset + ", +" + length + ")" : op + " " + location;
        }
    }

    private final BlobStorage delegate;
    private final List<Access> log = new ArrayList<>();

    RecordingBlobStorage(BlobStorage delegate) {
        this.delegate = delegate;
    }

    @Override
    public ReadableObject open(URI location) throws IOException {
        record(new Access(Op.OPEN, location, 0, 0));
        return new ForwardingReadableObject(delegate.open(location)) {
            @Override
            public long length() throws IOException {
                record(new Access(Op.LENGTH, location, 0, 0));
                return super.length();
            }

            @Override
            public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
                record(new Access(Op.READ, location, position, length));
                super.readFully(position, buffer, offset, length);
            }

            /** One access, as the storage sees it: one request for the whole span. */
            @Override
            public void readScattered(long position, List<ScatterTarget> targets) throws IOException {
                record(new Access(Op.READ, location, position, ScatterTarget.totalLength(targets)));
                super.readScattered(position, targets);
            }
        };
    }

    private synchronized void record(Access access) {
        log.add(access);
    }

    synchronized List<Access> log() {
        return List.copyOf(log);
    }

    synchronized List<Access> reads() {
        return log.stream().filter(access -> access.op() == Op.READ).toList();
    }

    synchronized long count(Op op) {
        return log.stream().filter(access -> access.op() == op).count();
    }

    synchronized void clear() {
        log.clear();
    }
}
