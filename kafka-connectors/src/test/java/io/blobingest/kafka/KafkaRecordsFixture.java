package io.blobingest.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/** Kafka records for unit tests, without a broker. */
final class KafkaRecordsFixture {

    private KafkaRecordsFixture() {}

    /** The record a consumer would read back at {@code partition/offset} after {@code sent} was produced. */
    static ConsumerRecord<byte[], byte[]> received(ProducerRecord<byte[], byte[]> sent, int partition, long offset) {
        return new ConsumerRecord<>(
                sent.topic(),
                partition,
                offset,
                0L,
                TimestampType.CREATE_TIME,
                -1,
                -1,
                sent.key(),
                sent.value(),
                new RecordHeaders(sent.headers().toArray()),
                Optional.empty());
    }

    static ConsumerRecord<byte[], byte[]> consumerRecord(
            String topic, int partition, long offset, byte[] key, byte[] value, List<Header> headers) {
        return new ConsumerRecord<>(
                topic,
                partition,
                offset,
                0L,
                TimestampType.CREATE_TIME,
                -1,
                -1,
                key,
                value,
                new RecordHeaders(headers.toArray(new Header[0])),
                Optional.empty());
    }

    /** Header names and values as "name=value" strings, "name" alone for a header without value. */
    static List<String> headerStrings(Iterable<Header> headers) {
        List<String> strings = new ArrayList<>();
        for (Header header : headers) {
            strings.add(header.value() == null ? header.key() : header.key() + "=" + new String(header.value(), UTF_8));
        }
        return strings;
    }
}
