package io.blobingest.kafka.internal;

import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * Where a dead letter came from and why, without its record: enough to read its input record again
 * from the input topic and send the same dead letter again.
 *
 * @param topic the input record's topic
 * @param partition its partition
 * @param offset its offset
 * @param code the dead letter's code
 * @param detail the dead letter's detail (never a payload, nor a secret: {@link DeadLetter#detail})
 */
@Internal
public record DeadLetterRef(String topic, int partition, long offset, DeadLetterCode code, String detail) {

    public DeadLetterRef {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(detail, "detail");
    }

    public static DeadLetterRef of(DeadLetter deadLetter) {
        return new DeadLetterRef(
                deadLetter.record().topic(),
                deadLetter.record().partition(),
                deadLetter.record().offset(),
                deadLetter.code(),
                deadLetter.detail());
    }

    /** {@code topic/partition/offset code}. */
    @Override
    public String toString() {
        return topic + "/" + partition + "/" + offset + " " + code.wireName();
    }
}
