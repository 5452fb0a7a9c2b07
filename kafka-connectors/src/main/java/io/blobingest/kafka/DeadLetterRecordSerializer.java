package io.blobingest.kafka;

import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobHeaders;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.DeadLetter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Writes a refused input record to the dead-letter topic unchanged (key, value, headers in order),
 * followed by {@code blob.error} and {@code blob.error.detail}. A record that was dead-lettered
 * before keeps its old error headers; the last ones are the current error.
 */
@PublicEvolving
public final class DeadLetterRecordSerializer implements KafkaRecordSerializationSchema<DeadLetter> {

    private static final long serialVersionUID = 1L;

    private final String topic;

    public DeadLetterRecordSerializer(String topic) {
        this.topic = Objects.requireNonNull(topic, "topic");
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(DeadLetter deadLetter, KafkaSinkContext context, Long timestamp) {
        BlobRecord input = deadLetter.record();
        List<Header> headers = new ArrayList<>(input.headers().size() + 2);
        for (Attribute header : input.headers()) {
            headers.add(new RecordHeader(header.name(), header.value()));
        }
        headers.add(new RecordHeader(
                BlobHeaders.ERROR, BlobHeaders.utf8(deadLetter.code().wireName())));
        headers.add(new RecordHeader(BlobHeaders.ERROR_DETAIL, BlobHeaders.utf8(deadLetter.detail())));
        return new ProducerRecord<>(topic, null, timestamp, input.key(), input.value(), headers);
    }
}
