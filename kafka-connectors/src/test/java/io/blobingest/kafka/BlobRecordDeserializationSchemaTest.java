package io.blobingest.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobRecord;
import io.blobingest.sink.BlobTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.util.Collector;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;

class BlobRecordDeserializationSchemaTest {

    private final BlobRecordDeserializationSchema schema = new BlobRecordDeserializationSchema();

    @Test
    void keepsKeyValueHeadersInOrderAndTheSource() {
        List<Header> headers = List.of(
                new RecordHeader("b", "1".getBytes(UTF_8)),
                new RecordHeader("blob.uri", "s3://bucket/x".getBytes(UTF_8)),
                new RecordHeader("a", (byte[]) null),
                new RecordHeader("b", "2".getBytes(UTF_8)));

        BlobRecord record = deserialize(
                KafkaRecordsFixture.consumerRecord("input", 3, 42L, "k".getBytes(UTF_8), new byte[] {1, 2}, headers));

        assertThat(record.key()).isEqualTo("k".getBytes(UTF_8));
        assertThat(record.value()).containsExactly(1, 2);
        assertThat(record.headers()).extracting(Attribute::name).containsExactly("b", "blob.uri", "a", "b");
        assertThat(record.headers())
                .extracting(h -> h.value() == null ? null : new String(h.value(), UTF_8))
                .containsExactly("1", "s3://bucket/x", null, "2");
        assertThat(record.source()).isEqualTo("input/3/42");
    }

    @Test
    void keepsNullKeyAndNullValueAsNull() {
        BlobRecord record = deserialize(KafkaRecordsFixture.consumerRecord("input", 0, 0L, null, null, List.of()));

        assertThat(record.key()).isNull();
        assertThat(record.value()).isNull();
        assertThat(record.headers()).isEmpty();
    }

    @Test
    void keepsAnEmptyValueApartFromNull() {
        BlobRecord record =
                deserialize(KafkaRecordsFixture.consumerRecord("input", 0, 0L, null, new byte[0], List.of()));

        assertThat(record.value()).isNotNull().isEmpty();
    }

    @Test
    void producesTheDeclaredBlobRecordType() {
        assertThat(schema.getProducedType()).isSameAs(BlobTypes.BLOB_RECORD);
    }

    private BlobRecord deserialize(org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]> input) {
        List<BlobRecord> out = new ArrayList<>();
        schema.deserialize(input, new Collector<>() {
            @Override
            public void collect(BlobRecord record) {
                out.add(record);
            }

            @Override
            public void close() {}
        });
        assertThat(out).hasSize(1);
        return out.get(0);
    }
}
