package io.blobingest.storage.testing;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.local.LocalFileSystem;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * The local disk under the scheme {@code flaky:} ({@code flaky:///tmp/x} is {@code /tmp/x}),
 * whose reads of a file fail on demand: {@link #failReads} arms the next streams opened on a file
 * to throw an {@link IOException} once they have read a given number of bytes; {@link #stallReads}
 * makes every read of a file block until its thread is interrupted. Status calls always work. Registered with Flink through {@code META-INF/services} in this test-jar, so {@link
 * FileSystem#get} serves it in any test JVM, a MiniCluster's tasks included.
 */
public final class FlakyFileSystem extends LocalFileSystem {

    public static final String SCHEME = "flaky";

    private static final Map<String, Failures> ARMED = new ConcurrentHashMap<>();
    private static final Map<String, StalledReads> STALLED = new ConcurrentHashMap<>();

    /** {@code file} under the {@code flaky:} scheme. */
    public static URI uri(java.nio.file.Path file) {
        return URI.create(SCHEME + "://" + file.toAbsolutePath().toUri().getRawPath());
    }

    /**
     * The next {@code streams} streams opened on {@code file} fail once they have read {@code
     * afterBytes} bytes (0: on the first read); {@link Integer#MAX_VALUE} streams: every one.
     */
    public static void failReads(java.nio.file.Path file, int streams, long afterBytes) {
        ARMED.put(key(file.toFile()), new Failures(streams, afterBytes));
    }

    /**
     * Every read of {@code file} from now on blocks until its thread is interrupted, then throws
     * {@link InterruptedIOException}.
     */
    public static StalledReads stallReads(java.nio.file.Path file) {
        StalledReads stalled = new StalledReads(new CountDownLatch(1), new CountDownLatch(1));
        STALLED.put(key(file.toFile()), stalled);
        return stalled;
    }

    /** Streams opened on {@code file} from now on read normally again. */
    public static void resumeReads(java.nio.file.Path file) {
        STALLED.remove(key(file.toFile()));
    }

    /**
     * @param started counted down when a read of the file starts to block
     * @param interrupted counted down when a blocked read is interrupted
     */
    public record StalledReads(CountDownLatch started, CountDownLatch interrupted) {}

    /** How many of the next streams opened on {@code file} will still fail. */
    public static int remainingFailures(java.nio.file.Path file) {
        Failures failures = ARMED.get(key(file.toFile()));
        return failures == null ? 0 : failures.remaining();
    }

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public FSDataInputStream open(Path path, int bufferSize) throws IOException {
        return open(path);
    }

    @Override
    public FSDataInputStream open(Path path) throws IOException {
        File file = pathToFile(path);
        FSDataInputStream in = super.open(path);
        StalledReads stalled = STALLED.get(key(file));
        if (stalled != null) {
            return new StallingStream(in, stalled);
        }
        Failures failures = ARMED.get(key(file));
        return failures != null && failures.take() ? new FailingStream(in, failures.afterBytes, file) : in;
    }

    private static String key(File file) {
        return file.getAbsoluteFile().toPath().normalize().toString();
    }

    private static final class Failures {
        final long afterBytes;
        int remaining;

        Failures(int streams, long afterBytes) {
            this.remaining = streams;
            this.afterBytes = afterBytes;
        }

        synchronized int remaining() {
            return remaining;
        }

        synchronized boolean take() {
            if (remaining == 0) {
                return false;
            }
            if (remaining != Integer.MAX_VALUE) {
                remaining--;
            }
            return true;
        }
    }

    private static final class FailingStream extends FSDataInputStream {
        private final FSDataInputStream in;
        private final long failAfter;
        private final File file;
        private long read;

        FailingStream(FSDataInputStream in, long failAfter, File file) {
            this.in = in;
            this.failAfter = failAfter;
            this.file = file;
        }

        @Override
        public void seek(long position) throws IOException {
            in.seek(position);
        }

        @Override
        public long getPos() throws IOException {
            return in.getPos();
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (read >= failAfter) {
                throw new IOException("injected read failure of " + file + " after " + read + " bytes");
            }
            int n = in.read(buffer, offset, (int) Math.min(length, failAfter - read));
            if (n > 0) {
                read += n;
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    private static final class StallingStream extends FSDataInputStream {
        private final FSDataInputStream in;
        private final StalledReads stalled;

        StallingStream(FSDataInputStream in, StalledReads stalled) {
            this.in = in;
            this.stalled = stalled;
        }

        @Override
        public void seek(long position) throws IOException {
            in.seek(position);
        }

        @Override
        public long getPos() throws IOException {
            return in.getPos();
        }

        @Override
        public int read() throws IOException {
            return read(new byte[1], 0, 1);
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            stalled.started().countDown();
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stalled.interrupted().countDown();
            }
            throw new InterruptedIOException("stalled read interrupted");
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** Flink's entry point: {@code flaky:} URIs get the one shared instance. */
    public static final class Factory implements FileSystemFactory {
        private static final FlakyFileSystem INSTANCE = new FlakyFileSystem();

        @Override
        public String getScheme() {
            return SCHEME;
        }

        @Override
        public FileSystem create(URI fsUri) {
            return INSTANCE;
        }
    }
}
