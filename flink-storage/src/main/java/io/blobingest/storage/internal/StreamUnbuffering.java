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
 * Frees what an idle stream holds without closing it: Hadoop's {@code CanUnbuffer.unbuffer()},
 * which on S3A ends the stream's current ranged GET and so hands its HTTP connection back to the
 * pool, while the stream, its length and its next read's GET stay (no new HEAD). S3A keeps a
 * connection leased for as long as a GET has unread bytes, and a random-policy GET asks for at
 * least {@code fs.s3a.readahead.range} (64 KiB): without this, every object a batch keeps open
 * after a small read holds a connection, and a batch over more objects than {@code
 * fs.s3a.connection.maximum} waits for the pool until S3A gives up.
 *
 * <p>Flink's {@link FSDataInputStream} has no {@code unbuffer}; its Hadoop stream (in the S3
 * plugin, its own class loader) exposes the Hadoop stream through a public {@code
 * getHadoopInputStream()}, which is found by name. Streams of other file systems (Flink's local
 * one) hold no connection and are left as they are.
 */
final class StreamUnbuffering {

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

    private StreamUnbuffering() {}

    /**
     * Unbuffers {@code stream} if it is a Hadoop stream; leaves any other as it is.
     *
     * @throws IOException if unbuffering failed: the caller closes the stream instead of keeping it
     */
    static void unbuffer(FSDataInputStream stream) throws IOException {
        FSDataInputStream unwrapped = stripWrappers(stream);
        Optional<Method> hadoopStream = HADOOP_STREAM.get(unwrapped.getClass());
        if (hadoopStream.isEmpty()) {
            return;
        }
        Object hadoop = invoke(hadoopStream.get(), unwrapped);
        Optional<Method> unbuffer = UNBUFFER.get(hadoop.getClass());
        if (unbuffer.isPresent()) {
            invoke(unbuffer.get(), hadoop);
        }
    }

    /** The stream inside Flink's wrappers (the task's safety net wraps the streams it opens). */
    @SuppressWarnings("unchecked")
    private static FSDataInputStream stripWrappers(FSDataInputStream stream) {
        return stream instanceof WrappingProxy<?> proxy
                ? WrappingProxyUtil.stripProxy((WrappingProxy<FSDataInputStream>) proxy)
                : stream;
    }

    private static Optional<Method> publicMethod(Class<?> type, String name) {
        try {
            return Optional.of(type.getMethod(name));
        } catch (NoSuchMethodException e) {
            return Optional.empty();
        }
    }

    private static Object invoke(Method method, Object target) throws IOException {
        try {
            return method.invoke(target);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof UncheckedIOException unchecked) {
                throw unchecked.getCause();
            }
            throw new IOException(method.getDeclaringClass().getName() + "." + method.getName() + "() failed", cause);
        } catch (IllegalAccessException e) {
            throw new IOException(
                    "cannot call " + method + " on " + target.getClass().getName(), e);
        }
    }
}
