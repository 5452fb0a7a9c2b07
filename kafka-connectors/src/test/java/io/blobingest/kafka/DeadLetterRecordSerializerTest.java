package io.blobingest.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class DeadLetterRecordSerializerTest {

    private final DeadLetterRecordSerializer serializer = new DeadLetterRecordSerializer("dlq");

    @Test
    void forwardsTheInputUnchangedAndAppendsTheError() {
        BlobRecord input = new BlobRecord(
                "k".getBytes(UTF_8),
                new byte[] {9, 8},
                List.of(
                        new Attribute("blob.uri", "relative".getBytes(UTF_8)),
                        new Attribute("trace", null),
                        new Attribute("trace", "2".getBytes(UTF_8))),
                "input",
                1,
                7,
                null);

        ProducerRecord<byte[], byte[]> record = serializer.serialize(
                new DeadLetter(input, DeadLetterCode.BAD_URI, "blob.uri is not absolute"), null, 1234L);

        assertThat(record.topic()).isEqualTo("dlq");
        assertThat(record.partition()).isNull();
        assertThat(record.timestamp()).isEqualTo(1234L);
        assertThat(record.key()).isSameAs(input.key());
        assertThat(record.value()).isSameAs(input.value());
        assertThat(KafkaRecordsFixture.headerStrings(record.headers()))
                .containsExactly(
                        "blob.uri=relative",
                        "trace",
                        "trace=2",
                        "blob.error=bad-uri",
                        "blob.error.detail=blob.uri is not absolute");
    }

    @Test
    void keepsANullValueAndANullKey() {
        BlobRecord input = new BlobRecord(null, null, List.of(), "input", 0, 0, null);

        ProducerRecord<byte[], byte[]> record =
                serializer.serialize(new DeadLetter(input, DeadLetterCode.NULL_VALUE, "no value"), null, null);

        assertThat(record.key()).isNull();
        assertThat(record.value()).isNull();
        assertThat(record.timestamp()).isNull();
        assertThat(record.headers().lastHeader("blob.error").value()).isEqualTo("null-value".getBytes(UTF_8));
    }

    @Test
    void aRecordDeadLetteredAgainEndsWithItsCurrentError() {
        BlobRecord input = new BlobRecord(
                null, null, List.of(new Attribute("blob.error", "too-large".getBytes(UTF_8))), "input", 0, 0, null);

        ProducerRecord<byte[], byte[]> record =
                serializer.serialize(new DeadLetter(input, DeadLetterCode.NULL_VALUE, "no value"), null, null);

        assertThat(record.headers().lastHeader("blob.error").value()).isEqualTo("null-value".getBytes(UTF_8));
    }
}
