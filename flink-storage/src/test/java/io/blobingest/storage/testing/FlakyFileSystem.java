package io.blobingest.storage.testing;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.local.LocalFileSystem;

/**
 * The local disk under the scheme {@code flaky:} ({@code flaky:///tmp/x} is {@code /tmp/x}),
 * whose reads of a file fail on demand: {@link #failReads} arms the next streams opened on a file
 * to throw an {@link IOException} once they have read a given number of bytes; {@link #stallReads}
 * makes every read of a file block until its thread is interrupted; {@link #hangReads} makes them
 * block ignoring interrupts, {@link #trickleReads} makes them slow. {@link #reportLength} and
 * {@link #failStatusWith} make status calls lie or throw, as a faulty file system might; otherwise
 * status calls always work. {@link #slowDirectoryDeletes} makes deleting directories slow.
 * Registered with Flink through {@code META-INF/services} in this test-jar, so {@link
 * FileSystem#get} serves it in any test JVM, a MiniCluster's tasks included.
 */
public final class FlakyFileSystem extends LocalFileSystem {

    public static final String SCHEME = "flaky";

    private static final Map<String, Failures> ARMED = new ConcurrentHashMap<>();
    private static final Map<String, StalledReads> STALLED = new ConcurrentHashMap<>();
    private static final Map<String, HungReads> HUNG = new ConcurrentHashMap<>();
    private static final Map<String, Trickle> TRICKLING = new ConcurrentHashMap<>();
    private static final Map<String, Long> REPORTED_LENGTHS = new ConcurrentHashMap<>();
    private static final Map<String, RuntimeException> STATUS_FAILURES = new ConcurrentHashMap<>();
    private static final Map<java.nio.file.Path, Duration> SLOW_DIRECTORY_DELETES = new ConcurrentHashMap<>();

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

    /**
     * Every read of {@code file} from now on blocks, ignoring interrupts, until {@link
     * HungReads#release()}, then throws {@link IOException}: a client stuck in a call that does not
     * honour interrupts.
     */
    public static HungReads hangReads(java.nio.file.Path file) {
        HungReads hung = new HungReads(new CountDownLatch(1), new CountDownLatch(1));
        HUNG.put(key(file.toFile()), hung);
        return hung;
    }

    /**
     * Every read of {@code file} from now on returns at most {@code bytesPerRead} bytes, each after
     * waiting {@code pause}: a slow server. The wait is interruptible.
     */
    public static void trickleReads(java.nio.file.Path file, int bytesPerRead, Duration pause) {
        TRICKLING.put(key(file.toFile()), new Trickle(bytesPerRead, pause));
    }

    /** The status of {@code file} from now on reports {@code length} instead of its real length. */
    public static void reportLength(java.nio.file.Path file, long length) {
        REPORTED_LENGTHS.put(key(file.toFile()), length);
    }

    /** Reading the status of {@code file} from now on throws {@code failure}. */
    public static void failStatusWith(java.nio.file.Path file, RuntimeException failure) {
        STATUS_FAILURES.put(key(file.toFile()), failure);
    }

    /**
     * Every delete of a directory under {@code root} from now on first waits {@code pause}, as on a
     * slow store; files are deleted at once. The wait is interruptible.
     */
    public static void slowDirectoryDeletes(java.nio.file.Path root, Duration pause) {
        SLOW_DIRECTORY_DELETES.put(root.toAbsolutePath().normalize(), pause);
    }

    /** Streams opened on {@code file} from now on read normally again, and its status is true. */
    public static void resumeReads(java.nio.file.Path file) {
        String key = key(file.toFile());
        STALLED.remove(key);
        HUNG.remove(key);
        TRICKLING.remove(key);
        REPORTED_LENGTHS.remove(key);
        STATUS_FAILURES.remove(key);
    }

    /**
     * @param started counted down when a read of the file starts to hang
     * @param released counted down by {@link #release()}; until then every read hangs
     */
    public record HungReads(CountDownLatch started, CountDownLatch released) {
        public void release() {
            released.countDown();
        }
    }

    private record Trickle(int bytesPerRead, Duration pause) {}

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
    public FileStatus getFileStatus(Path path) throws IOException {
        String key = key(pathToFile(path));
        RuntimeException failure = STATUS_FAILURES.get(key);
        if (failure != null) {
            throw failure;
        }
        FileStatus status = super.getFileStatus(path);
        Long reported = REPORTED_LENGTHS.get(key);
        return reported == null ? status : new LyingStatus(status, reported);
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
        HungReads hung = HUNG.get(key(file));
        if (hung != null) {
            return new HangingStream(in, hung);
        }
        Trickle trickle = TRICKLING.get(key(file));
        if (trickle != null) {
            return new TricklingStream(in, trickle);
        }
        Failures failures = ARMED.get(key(file));
        return failures != null && failures.take() ? new FailingStream(in, failures.afterBytes, file) : in;
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        File file = pathToFile(path);
        if (file.isDirectory()) {
            java.nio.file.Path directory = file.getAbsoluteFile().toPath().normalize();
            for (Map.Entry<java.nio.file.Path, Duration> slow : SLOW_DIRECTORY_DELETES.entrySet()) {
                if (directory.startsWith(slow.getKey())) {
                    pause(slow.getValue(), file);
                }
            }
        }
        return super.delete(path, recursive);
    }

    private static void pause(Duration pause, File file) throws InterruptedIOException {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted in the slow delete of " + file);
        }
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

    private static final class FailingStream extends DelegatingStream {
        private final long failAfter;
        private final File file;
        private long read;

        FailingStream(FSDataInputStream in, long failAfter, File file) {
            super(in);
            this.failAfter = failAfter;
            this.file = file;
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
    }

    private static final class StallingStream extends DelegatingStream {
        private final StalledReads stalled;

        StallingStream(FSDataInputStream in, StalledReads stalled) {
            super(in);
            this.stalled = stalled;
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
    }

    /** A read that hangs until released, whatever interrupts it gets. */
    private static final class HangingStream extends DelegatingStream {
        private final HungReads hung;

        HangingStream(FSDataInputStream in, HungReads hung) {
            super(in);
            this.hung = hung;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            hung.started().countDown();
            boolean interrupted = false;
            while (true) {
                try {
                    hung.released().await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // ignored on purpose, and restored below
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            throw new IOException("hung read released");
        }
    }

    private static final class TricklingStream extends DelegatingStream {
        private final Trickle trickle;

        TricklingStream(FSDataInputStream in, Trickle trickle) {
            super(in);
            this.trickle = trickle;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            try {
                Thread.sleep(trickle.pause().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("trickling read interrupted");
            }
            return in.read(buffer, offset, Math.min(length, trickle.bytesPerRead()));
        }
    }

    private abstract static class DelegatingStream extends FSDataInputStream {
        final FSDataInputStream in;

        DelegatingStream(FSDataInputStream in) {
            this.in = in;
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
        public void close() throws IOException {
            in.close();
        }
    }

    private record LyingStatus(FileStatus status, long length) implements FileStatus {
        @Override
        public long getLen() {
            return length;
        }

        @Override
        public long getBlockSize() {
            return status.getBlockSize();
        }

        @Override
        public short getReplication() {
            return status.getReplication();
        }

        @Override
        public long getModificationTime() {
            return status.getModificationTime();
        }

        @Override
        public long getAccessTime() {
            return status.getAccessTime();
        }

        @Override
        public boolean isDir() {
            return status.isDir();
        }

        @Override
        public Path getPath() {
            return status.getPath();
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
