package io.blobingest.kafka;

import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobRecord;
import io.blobingest.sink.BlobTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Reads an input record as it is: key, value (null stays null), every header in order, and where
 * it came from. Interprets nothing, so it never fails on bad input: a bad record is classified and
 * dead-lettered downstream, whole.
 */
@PublicEvolving
public final class BlobRecordDeserializationSchema implements KafkaRecordDeserializationSchema<BlobRecord> {

    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<BlobRecord> out) {
        List<Attribute> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            headers.add(new Attribute(header.key(), header.value()));
        }
        out.collect(new BlobRecord(
                record.key(),
                record.value(),
                headers,
                record.topic(),
                record.partition(),
                record.offset(),
                timestamp(record)));
    }

    /** The record's timestamp, null for Kafka's "none" ({@link ConsumerRecord#NO_TIMESTAMP}). */
    static Long timestamp(ConsumerRecord<?, ?> record) {
        return record.timestamp() == ConsumerRecord.NO_TIMESTAMP ? null : record.timestamp();
    }

    @Override
    public TypeInformation<BlobRecord> getProducedType() {
        return BlobTypes.BLOB_RECORD;
    }
}
