package io.blobingest.storage;

import java.io.IOException;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A {@code file:} object that {@link ConfinedFileStorage} does not read: it lies under no allowed
 * prefix, its path below the prefix passes through a symbolic link, it is no regular file, or it
 * has a second name. Never {@linkplain RetryPolicy#isTransient transient}: another try finds the
 * same. The message names the object by its location, never the file a link leads to.
 */
@PublicEvolving
public final class RefusedFileException extends IOException {

    private static final long serialVersionUID = 1L;

    public RefusedFileException(String message) {
        super(message);
    }
}
