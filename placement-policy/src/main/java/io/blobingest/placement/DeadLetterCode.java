package io.blobingest.placement;

/**
 * Why an input record went to the dead-letter topic (spec.md section 4). The contract's codes keep their
 * meaning forever; new ones may be added.
 */
public enum DeadLetterCode {
    /** The value is null and there is no {@code blob.uri}. */
    NULL_VALUE("null-value"),
    /** A malformed byte range, or (ingest mode) a range beyond the object's end. */
    BAD_RANGE("bad-range"),
    /** {@code blob.uri} is unusable or {@code blob.mode} is unknown. */
    BAD_URI("bad-uri"),
    /** {@code blob.uri} matches no allowed prefix. */
    URI_NOT_ALLOWED("uri-not-allowed"),
    /** The blob exceeds the configured maximum size. */
    TOO_LARGE("too-large"),
    /** Ingest mode: the external object does not exist. */
    NOT_FOUND("not-found"),
    /** Ingest mode: any other fetch error, after retries. */
    FETCH_FAILED("fetch-failed"),
    /**
     * Key, headers and (Inline) value together cannot fit one descriptor record under the
     * descriptor producer's {@code max.request.size}: checked last, before the blob is placed.
     */
    DESCRIPTOR_TOO_LARGE("descriptor-too-large"),
    /**
     * A header that {@code sink.lance.columns} maps to a typed column does not parse as its type.
     * Checked after {@code too-large}, before any fetch. Last among the constants (not in check
     * order) so that an older checkpoint's ordinals keep their meaning.
     */
    BAD_HEADER("bad-header");

    private final String wireName;

    DeadLetterCode(String wireName) {
        this.wireName = wireName;
    }

    /** The value of the {@code blob.error} header. */
    public String wireName() {
        return wireName;
    }
}
