package io.blobingest.sink.internal.writer;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Passes each write on in slices of at most {@link #MAX_SLICE} bytes. A file system stream that
 * writes a heap array through a {@code FileChannel} (Flink's local recoverable stream does) has
 * the JDK copy it into a temporary direct buffer as large as the write: one write of a 40 MiB
 * Dedicated blob allocated, zeroed and page-faulted 40 MiB of native memory (about 5% of the
 * ingest job's CPU in the bench's profile), where slices reuse one cached 1 MiB buffer.
 */
final class SlicingOutputStream extends FilterOutputStream {

    static final int MAX_SLICE = 1024 * 1024;

    SlicingOutputStream(OutputStream out) {
        super(out);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        for (int written = 0; written < length; ) {
            int slice = Math.min(MAX_SLICE, length - written);
            out.write(bytes, offset + written, slice);
            written += slice;
        }
    }
}
