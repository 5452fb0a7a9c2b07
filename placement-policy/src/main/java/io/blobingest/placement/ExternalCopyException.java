package io.blobingest.placement;

import java.io.IOException;
import java.util.Objects;

/**
 * The sink could not copy the bytes of a Dedicated blob's {@link ExternalBytes source}: the object
 * failed to be read after every try, ended early, stalled, was refused, or the copy passed its
 * deadline. Not a
 * fault of the sink, whose own writes never throw this: the record is a dead letter, which the
 * fetch stage in front of the sink sends when the write of the blob it handed on throws this.
 *
 * @see PlacedBlob#copiedFrom
 */
public final class ExternalCopyException extends IOException {

    private static final long serialVersionUID = 1L;

    private final DeadLetterCode code;

    /**
     * @param code {@code not-found} for an object gone since it was fetched, {@code uri-not-allowed}
     *     for a {@code file:} object refused when it was opened again, {@code fetch-failed} otherwise
     * @param detail for the dead letter: names the object by its location, never a query or userinfo
     */
    public ExternalCopyException(DeadLetterCode code, String detail, Throwable cause) {
        super(detail, cause);
        this.code = Objects.requireNonNull(code, "code");
    }

    public DeadLetterCode code() {
        return code;
    }

    /** The first {@code ExternalCopyException} in {@code failure}'s cause chain, or null. */
    public static ExternalCopyException findIn(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ExternalCopyException copy) {
                return copy;
            }
        }
        return null;
    }
}
