package io.blobingest.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DescriptorRecordsTest {

    private static final long ENTRY_5 = 0x8000_0000_0000_0005L;
    private static final List<Attribute> ATTRIBUTES = List.of(
            new Attribute("camera", "front".getBytes(UTF_8)),
            new Attribute("empty", null),
            new Attribute("camera", "rear".getBytes(UTF_8)));

    private final DescriptorRecordSerializer serializer =
            new DescriptorRecordSerializer(DescriptorTopics.of("descriptors"));

    static Stream<Arguments> rows() {
        return Stream.of(
                Arguments.of(new DescriptorRow(
                        "k".getBytes(UTF_8),
                        "in",
                        2,
                        10,
                        1_765_000_000_000L,
                        BlobDescriptor.inline(3),
                        null,
                        new byte[] {1, 2, 3},
                        0xFFFF_FFFFL,
                        ATTRIBUTES)),
                Arguments.of(new DescriptorRow(
                        null, "in", 0, 0, null, BlobDescriptor.inline(0), null, new byte[0], 0L, List.of())),
                Arguments.of(new DescriptorRow(
                        "k".getBytes(UTF_8),
                        "in.topic-1",
                        2,
                        10,
                        0L,
                        BlobDescriptor.packed(ENTRY_5, 100, 7),
                        "set-1",
                        null,
                        12L,
                        ATTRIBUTES)),
                Arguments.of(new DescriptorRow(
                        null, "in", 0, 1, null, BlobDescriptor.packed(4096, 100, 1), "set-1", null, 12L, List.of())),
                Arguments.of(new DescriptorRow(
                        null,
                        "in",
                        0,
                        2,
                        null,
                        BlobDescriptor.dedicated(5_000_000, 0xFFFF_FFFFL),
                        "set-1",
                        null,
                        99L,
                        ATTRIBUTES)),
                Arguments.of(new DescriptorRow(
                        null,
                        "in",
                        0,
                        Long.MAX_VALUE,
                        null,
                        BlobDescriptor.external("s3://bucket/x?v=1", -11L, 10),
                        null,
                        null,
                        null,
                        ATTRIBUTES)),
                Arguments.of(new DescriptorRow(
                        null,
                        "in",
                        0,
                        3,
                        null,
                        BlobDescriptor.external("file:///data/x", 0, 0),
                        null,
                        null,
                        null,
                        List.of())));
    }

    @ParameterizedTest
    @MethodSource("rows")
    void parseReadsBackWhatTheSerializerWrote(DescriptorRow row) {
        ProducerRecord<byte[], byte[]> sent = serializer.serialize(row, null, null);

        DescriptorRow parsed = DescriptorRecords.parse(KafkaRecordsFixture.received(sent, 0, 0));

        assertThat(parsed).usingRecursiveComparison().isEqualTo(row);
    }

    @Test
    void writesAnObjectBackedPackedDescriptorAsSpecified() {
        DescriptorRow row = new DescriptorRow(
                "k".getBytes(UTF_8),
                "in",
                2,
                10,
                1_765_000_000_123L,
                BlobDescriptor.packed(ENTRY_5, 100, 7),
                "set-1",
                null,
                0xFFFF_FFFFL,
                ATTRIBUTES);

        ProducerRecord<byte[], byte[]> record = serializer.serialize(row, null, 55L);

        assertThat(record.topic()).isEqualTo("descriptors");
        assertThat(record.partition()).isNull();
        assertThat(record.timestamp()).isEqualTo(55L);
        assertThat(record.key()).isEqualTo("k".getBytes(UTF_8));
        assertThat(record.value()).isEmpty();
        assertThat(KafkaRecordsFixture.headerStrings(record.headers()))
                .containsExactly(
                        "blob.kind=1",
                        "blob.position=9223372036854775813",
                        "blob.size=100",
                        "blob.id=7",
                        "blob.uri=",
                        "blob.set=set-1",
                        "blob.crc32c=4294967295",
                        "blob.features=blob_object_pack",
                        "blob.source=in/2/10",
                        "blob.timestamp=1765000000123",
                        "camera=front",
                        "empty",
                        "camera=rear");
    }

    @Test
    void writesAnInlineDescriptorWithItsBytesAsTheValueAndNoSet() {
        DescriptorRow row = new DescriptorRow(
                null, "in", 0, 4, null, BlobDescriptor.inline(2), null, new byte[] {5, 6}, 7L, List.of());

        ProducerRecord<byte[], byte[]> record = serializer.serialize(row, null, null);

        assertThat(record.value()).containsExactly(5, 6);
        assertThat(KafkaRecordsFixture.headerStrings(record.headers()))
                .containsExactly(
                        "blob.kind=0",
                        "blob.position=0",
                        "blob.size=2",
                        "blob.id=0",
                        "blob.uri=",
                        "blob.crc32c=7",
                        "blob.features=",
                        "blob.source=in/0/4");
    }

    @Test
    void writesAnExternalReferenceWithoutSetAndCrc() {
        DescriptorRow row = new DescriptorRow(
                null, "in", 0, 4, null, BlobDescriptor.external("s3://b/k", 5, 10), null, null, null, List.of());

        ProducerRecord<byte[], byte[]> record = serializer.serialize(row, null, null);

        assertThat(record.value()).isEmpty();
        assertThat(KafkaRecordsFixture.headerStrings(record.headers()))
                .containsExactly(
                        "blob.kind=3",
                        "blob.position=5",
                        "blob.size=10",
                        "blob.id=0",
                        "blob.uri=s3://b/k",
                        "blob.features=",
                        "blob.source=in/0/4");
    }

    @Test
    void refusesAnAttributeWithAReservedName() {
        DescriptorRow row = new DescriptorRow(
                null,
                "in",
                0,
                4,
                null,
                BlobDescriptor.inline(0),
                null,
                new byte[0],
                0L,
                List.of(new Attribute("blob.kind", "2".getBytes(UTF_8))));

        assertThatThrownBy(() -> serializer.serialize(row, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "descriptor of in/0/4: attribute 'blob.kind' uses a header name reserved by spec.md section 4");
    }

    static Stream<Arguments> malformedRecords() {
        return Stream.of(
                malformed("missing kind", r -> without(r, "blob.kind"), "header blob.kind: the header is missing"),
                malformed(
                        "kind without value",
                        r -> with(r, "blob.kind", null),
                        "header blob.kind: the header has no value"),
                malformed("unknown kind", r -> with(r, "blob.kind", "9"), "unknown blob kind 9"),
                malformed(
                        "kind above u8",
                        r -> with(r, "blob.kind", "257"),
                        "header blob.kind: expected at most 255, found 257"),
                malformed(
                        "size not decimal",
                        r -> with(r, "blob.size", "ten"),
                        "header blob.size: expected a decimal u64, found 'ten'"),
                malformed(
                        "id above u32",
                        r -> with(r, "blob.id", "4294967296"),
                        "header blob.id: expected at most 4294967295"),
                malformed(
                        "crc above u32",
                        r -> with(r, "blob.crc32c", "4294967296"),
                        "header blob.crc32c: expected at most"),
                malformed(
                        "repeated header",
                        r -> adding(r, "blob.size", "100"),
                        "header blob.size appears more than once"),
                malformed(
                        "input header",
                        r -> adding(r, "blob.mode", "reference"),
                        "header blob.mode does not belong in a descriptor record"),
                malformed(
                        "unknown feature",
                        r -> with(r, "blob.features", "blob_object_pack,zstd"),
                        "header blob.features: unknown required feature 'zstd'"),
                malformed(
                        "missing needed feature",
                        r -> with(r, "blob.features", ""),
                        "header blob.features lists [] but the descriptor requires [blob_object_pack]"),
                malformed(
                        "set missing",
                        r -> without(r, "blob.set"),
                        "blob_set must be set iff kind is PACKED or DEDICATED"),
                malformed(
                        "source without offset",
                        r -> with(r, "blob.source", "in/2"),
                        "header blob.source: expected topic/partition/offset, found 'in/2'"),
                malformed(
                        "source with negative partition",
                        r -> with(r, "blob.source", "in/-1/2"),
                        "expected topic/partition/offset"),
                malformed(
                        "source without topic", r -> with(r, "blob.source", "/1/2"), "expected topic/partition/offset"),
                malformed(
                        "timestamp not decimal",
                        r -> adding(r, "blob.timestamp", "soon"),
                        "header blob.timestamp: expected a decimal u64, found 'soon'"),
                malformed(
                        "timestamp beyond a long",
                        r -> adding(r, "blob.timestamp", "9223372036854775808"),
                        "header blob.timestamp: expected milliseconds since the epoch, found 9223372036854775808"),
                malformed(
                        "packed descriptor with bytes",
                        r -> withValue(r, new byte[] {1}),
                        "a PACKED descriptor has an empty value, found 1 bytes"),
                malformed(
                        "packed descriptor with a uri",
                        r -> with(r, "blob.uri", "s3://b/k"),
                        "invalid PACKED descriptor: blob_uri must be empty"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedRecords")
    void parseRefusesMalformedRecordsNamingRecordAndHeader(
            String description, UnaryOperator<ConsumerRecord<byte[], byte[]>> damage, String problem) {
        DescriptorRow row = new DescriptorRow(
                null, "in", 2, 10, null, BlobDescriptor.packed(ENTRY_5, 100, 7), "set-1", null, 12L, List.of());
        ConsumerRecord<byte[], byte[]> record =
                KafkaRecordsFixture.received(serializer.serialize(row, null, null), 4, 77);

        assertThatThrownBy(() -> DescriptorRecords.parse(damage.apply(record)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("descriptor record descriptors/4/77: ")
                .hasMessageContaining(problem)
                .satisfies(e -> assertThat(e.getMessage().split("descriptor record ", -1))
                        .hasSize(2));
    }

    @Test
    void parseRefusesAnInlineRecordWithoutValue() {
        DescriptorRow row =
                new DescriptorRow(null, "in", 0, 0, null, BlobDescriptor.inline(0), null, new byte[0], 0L, List.of());
        ConsumerRecord<byte[], byte[]> record =
                withValue(KafkaRecordsFixture.received(serializer.serialize(row, null, null), 0, 1), null);

        assertThatThrownBy(() -> DescriptorRecords.parse(record))
                .hasMessage(
                        "descriptor record descriptors/0/1: an Inline descriptor needs its bytes as the value, found"
                                + " null");
    }

    @Test
    void parseRefusesInlineBytesThatDisagreeWithTheSize() {
        DescriptorRow row =
                new DescriptorRow(null, "in", 0, 0, null, BlobDescriptor.inline(2), null, new byte[2], 0L, List.of());
        ConsumerRecord<byte[], byte[]> record =
                withValue(KafkaRecordsFixture.received(serializer.serialize(row, null, null), 0, 1), new byte[3]);

        assertThatThrownBy(() -> DescriptorRecords.parse(record))
                .hasMessageContaining("inline_data has 3 bytes, descriptor size is 2");
    }

    private static Arguments malformed(
            String description, UnaryOperator<ConsumerRecord<byte[], byte[]>> damage, String problem) {
        return Arguments.of(description, damage, problem);
    }

    private static ConsumerRecord<byte[], byte[]> with(
            ConsumerRecord<byte[], byte[]> record, String name, String value) {
        List<Header> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            headers.add(header.key().equals(name) ? header(name, value) : header);
        }
        return copy(record, record.value(), headers);
    }

    private static ConsumerRecord<byte[], byte[]> without(ConsumerRecord<byte[], byte[]> record, String name) {
        List<Header> headers = new ArrayList<>();
        record.headers().forEach(header -> {
            if (!header.key().equals(name)) {
                headers.add(header);
            }
        });
        return copy(record, record.value(), headers);
    }

    private static ConsumerRecord<byte[], byte[]> adding(
            ConsumerRecord<byte[], byte[]> record, String name, String value) {
        List<Header> headers = new ArrayList<>(List.of(record.headers().toArray()));
        headers.add(header(name, value));
        return copy(record, record.value(), headers);
    }

    private static ConsumerRecord<byte[], byte[]> withValue(ConsumerRecord<byte[], byte[]> record, byte[] value) {
        return copy(record, value, List.of(record.headers().toArray()));
    }

    private static ConsumerRecord<byte[], byte[]> copy(
            ConsumerRecord<byte[], byte[]> record, byte[] value, List<Header> headers) {
        return KafkaRecordsFixture.consumerRecord(
                record.topic(), record.partition(), record.offset(), record.key(), value, headers);
    }

    private static Header header(String name, String value) {
        return new RecordHeader(name, value == null ? null : value.getBytes(UTF_8));
    }
}
