package io.blobingest.kafka;

import io.blobingest.objectlayer.DescriptorRow;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Writes each descriptor as one record of its descriptor topic, in {@link DescriptorRecords}' format. */
@PublicEvolving
public final class DescriptorRecordSerializer implements KafkaRecordSerializationSchema<DescriptorRow> {

    private static final long serialVersionUID = 1L;

    private final DescriptorTopics topics;

    public DescriptorRecordSerializer(DescriptorTopics topics) {
        this.topics = Objects.requireNonNull(topics, "topics");
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(DescriptorRow row, KafkaSinkContext context, Long timestamp) {
        return DescriptorRecords.toProducerRecord(topics.forInput(row.sourceTopic()), row, timestamp);
    }
}
