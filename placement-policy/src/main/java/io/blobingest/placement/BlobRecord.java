package io.blobingest.placement;

import io.blobingest.objectlayer.DescriptorRow.Attribute;
import java.util.List;
import java.util.Objects;

/**
 * One input record exactly as it arrived (spec.md section 4): key, value and headers untouched, plus
 * where it came from. Nothing here is validated; a bad record must still be forwarded whole to the
 * dead-letter topic.
 *
 * @param key may be null
 * @param value may be null (bad input unless a {@code blob.uri} header is present)
 * @param headers all headers in arrival order, {@code blob.*} ones included
 * @param timestamp the record's Kafka timestamp, milliseconds since the epoch; null when it has none
 */
public record BlobRecord(
        byte[] key, byte[] value, List<Attribute> headers, String topic, int partition, long offset, Long timestamp) {

    public BlobRecord {
        Objects.requireNonNull(topic, "topic");
        headers = List.copyOf(headers);
    }

    /** The last value of header {@code name}, or null if absent (Kafka's lastHeader semantics). */
    public byte[] lastHeader(String name) {
        Attribute last = BlobHeaders.last(headers, name);
        return last == null ? null : last.value();
    }

    /** {@code topic/partition/offset}. */
    public String source() {
        return topic + "/" + partition + "/" + offset;
    }
}
