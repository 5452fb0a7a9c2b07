package io.blobingest.storage.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Optional;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.util.WrappingProxy;
import org.apache.flink.util.WrappingProxyUtil;

/**
 * What the Object Layer asks of a Hadoop stream (S3A) that Flink's {@link FSDataInputStream} has no
 * method for. Flink's Hadoop stream (in the S3 plugin, its own class loader) exposes the Hadoop
 * stream through a public {@code getHadoopInputStream()}, which is found by name. Streams of other
 * file systems (Flink's local one) are left as they are.
 *
 * <ul>
 *   <li>{@link #readExactRanges}: Hadoop's {@code CanSetReadahead.setReadahead(0)}, on this stream
 *       only. A random-policy S3A GET asks for {@code max(length, fs.s3a.readahead.range)} bytes
 *       (64 KiB by default), and S3A drains what a read leaves of it to keep the connection: every
 *       read of a small blob put up to 64 KiB on the link. The Object Layer's reads are already the
 *       exact coalesced ranges it wants, so its streams read those and nothing more. Other users of
 *       {@code s3://} (checkpoints, whose buffered reads would become a GET each) keep the
 *       configured readahead.
 *   <li>{@link #unbuffer}: Hadoop's {@code CanUnbuffer.unbuffer()}, which on S3A ends the stream's
 *       current ranged GET and so hands its HTTP connection back to the pool, while the stream, its
 *       length and its next read's GET stay (no new HEAD). S3A keeps a connection leased for as long
 *       as a GET has unread bytes: without this, every object a batch keeps open could hold a
 *       connection, and a batch over more objects than {@code fs.s3a.connection.maximum} waited for
 *       the pool until S3A gave up.
 * </ul>
 */
final class HadoopStreams {

    private static final ClassValue<Optional<Method>> HADOOP_STREAM = new ClassValue<>() {
        @Override
        protected Optional<Method> computeValue(Class<?> type) {
            return publicMethod(type, "getHadoopInputStream");
        }
    };

    private static final ClassValue<Optional<Method>> UNBUFFER = new ClassValue<>() {
        @Override
        protected Optional<Method> computeValue(Class<?> type) {
            return publicMethod(type, "unbuffer");
        }
    };

    private static final ClassValue<Optional<Method>> SET_READAHEAD = new ClassValue<>() {
        @Override
        protected Optional<Method> computeValue(Class<?> type) {
            return publicMethod(type, "setReadahead", Long.class);
        }
    };

    private HadoopStreams() {}

    /**
     * Makes each read of {@code stream} ask for exactly its bytes, if it is a Hadoop stream whose
     * file system reads ahead (S3A); leaves any other as it is.
     *
     * @throws IOException if the file system refused: the caller closes the stream
     */
    static void readExactRanges(FSDataInputStream stream) throws IOException {
        try {
            callOnHadoopStream(stream, SET_READAHEAD, 0L);
        } catch (UnsupportedOperationException e) {
            // Hadoop's FSDataInputStream says so for a wrapped stream that does not read ahead.
        }
    }

    /**
     * Unbuffers {@code stream} if it is a Hadoop stream; leaves any other as it is.
     *
     * @throws IOException if unbuffering failed: the caller closes the stream instead of keeping it
     */
    static void unbuffer(FSDataInputStream stream) throws IOException {
        callOnHadoopStream(stream, UNBUFFER);
    }

    /** Calls {@code method} on the Hadoop stream inside {@code stream}, if there is one and it has the method. */
    private static void callOnHadoopStream(
            FSDataInputStream stream, ClassValue<Optional<Method>> method, Object... arguments) throws IOException {
        Optional<Object> hadoop = hadoopStream(stream);
        if (hadoop.isEmpty()) {
            return;
        }
        Optional<Method> found = method.get(hadoop.get().getClass());
        if (found.isPresent()) {
            invoke(found.get(), hadoop.get(), arguments);
        }
    }

    /** The Hadoop stream inside {@code stream}, if it is Flink's Hadoop stream. */
    private static Optional<Object> hadoopStream(FSDataInputStream stream) throws IOException {
        FSDataInputStream unwrapped = stripWrappers(stream);
        Optional<Method> hadoopStream = HADOOP_STREAM.get(unwrapped.getClass());
        if (hadoopStream.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(invoke(hadoopStream.get(), unwrapped));
    }

    /** The stream inside Flink's wrappers (the task's safety net wraps the streams it opens). */
    @SuppressWarnings("unchecked")
    private static FSDataInputStream stripWrappers(FSDataInputStream stream) {
        return stream instanceof WrappingProxy<?> proxy
                ? WrappingProxyUtil.stripProxy((WrappingProxy<FSDataInputStream>) proxy)
                : stream;
    }

    private static Optional<Method> publicMethod(Class<?> type, String name, Class<?>... parameterTypes) {
        try {
            return Optional.of(type.getMethod(name, parameterTypes));
        } catch (NoSuchMethodException e) {
            return Optional.empty();
        }
    }

    private static Object invoke(Method method, Object target, Object... arguments) throws IOException {
        try {
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof UncheckedIOException unchecked) {
                throw unchecked.getCause();
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(method.getDeclaringClass().getName() + "." + method.getName() + "() failed", cause);
        } catch (IllegalAccessException e) {
            throw new IOException(
                    "cannot call " + method + " on " + target.getClass().getName(), e);
        }
    }
}
