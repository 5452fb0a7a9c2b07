package io.blobingest.cli.demo;

import io.blobingest.placement.DeadLetterCode;

/** The faults the demo mixes into its input, one record each, and the code each must get. */
public enum BadRecord {
    /** No value and no {@code blob.uri}. */
    NULL_VALUE(DeadLetterCode.NULL_VALUE),
    /** {@code blob.position} without {@code blob.size}. */
    HALF_RANGE(DeadLetterCode.BAD_RANGE),
    /** A {@code blob.uri} without a scheme. */
    RELATIVE_URI(DeadLetterCode.BAD_URI),
    /** {@code blob.mode=copy}, neither {@code ingest} nor {@code reference}. */
    UNKNOWN_MODE(DeadLetterCode.BAD_URI),
    /** A {@code blob.uri} outside {@code external.allowed-prefixes}. */
    FOREIGN_URI(DeadLetterCode.URI_NOT_ALLOWED),
    /** A 1 TiB range of an allowed file, beyond {@code placement.max-blob-size}. */
    OVERSIZED_RANGE(DeadLetterCode.TOO_LARGE);

    private final DeadLetterCode expectedCode;

    BadRecord(DeadLetterCode expectedCode) {
        this.expectedCode = expectedCode;
    }

    public DeadLetterCode expectedCode() {
        return expectedCode;
    }
}
