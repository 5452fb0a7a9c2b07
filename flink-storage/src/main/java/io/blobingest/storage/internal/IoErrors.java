package io.blobingest.storage.internal;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.flink.annotation.Internal;

/** Adds context (which object, which range) to an I/O error without changing its kind. */
@Internal
public final class IoErrors {

    private IoErrors() {}

    /**
     * An exception of the same kind as {@code cause} where callers branch on the kind
     * ({@link FileNotFoundException}, {@link EOFException}), a plain {@link IOException}
     * otherwise, saying {@code context: cause message}.
     */
    public static IOException withContext(String context, IOException cause) {
        String message = context + ": " + cause.getMessage();
        IOException wrapped;
        if (cause instanceof FileNotFoundException) {
            wrapped = new FileNotFoundException(message);
        } else if (cause instanceof EOFException) {
            wrapped = new EOFException(message);
        } else {
            return new IOException(message, cause);
        }
        wrapped.initCause(cause);
        return wrapped;
    }
}
