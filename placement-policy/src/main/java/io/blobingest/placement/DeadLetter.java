package io.blobingest.placement;

import java.util.Objects;

/**
 * An input record the pipeline refuses, with the reason. It is forwarded whole to the dead-letter
 * topic.
 *
 * @param record the input exactly as it arrived
 * @param code the spec.md section 4 code
 * @param detail the reason for people; never quotes a payload, nor a URI's userinfo, query or
 *     fragment (they may carry secrets)
 */
public record DeadLetter(BlobRecord record, DeadLetterCode code, String detail) implements ClassifiedRecord {

    public DeadLetter {
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(detail, "detail");
    }
}
