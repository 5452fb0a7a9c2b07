package io.blobingest.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.ExternalBytes;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class DescriptorRecordLimitTest {

    private static final List<Attribute> ATTRIBUTES =
            List.of(new Attribute("camera", "cam-1".getBytes(UTF_8)), new Attribute("tag", null));
    /** The largest entry reference Raw Pack v1 writes: bit 63, entry index 2^32 - 1 (bits 62..32 zero). */
    private static final long LARGEST_ENTRY_REFERENCE = 0x8000_0000_FFFF_FFFFL;

    private static final long LARGEST_U32 = 0xFFFF_FFFFL;

    @Test
    void aBlobWhoseDescriptorJustFitsIsPlacedAndOneByteMoreIsRefused() {
        PlacedBlob fits = inline(new byte[10_000]);
        int limit = DescriptorRecordLimit.worstCaseRecordBytes(fits);
        DescriptorRecordLimit descriptorLimit = new DescriptorRecordLimit(limit);

        assertThat(descriptorLimit.refusal(fits))
                .as("a descriptor of exactly the limit")
                .isEmpty();

        PlacedBlob oneByteMore = inline(new byte[10_001]);
        assertThat(DescriptorRecordLimit.worstCaseRecordBytes(oneByteMore)).isEqualTo(limit + 1);
        assertThat(descriptorLimit.refusal(oneByteMore)).hasValueSatisfying(deadLetter -> {
            assertThat(deadLetter.code()).isEqualTo(DeadLetterCode.DESCRIPTOR_TOO_LARGE);
            assertThat(deadLetter.record()).isSameAs(oneByteMore.record());
            assertThat(deadLetter.detail())
                    .contains(
                            "up to " + (limit + 1) + " bytes",
                            "descriptor producer's " + limit,
                            "max.request.size",
                            "inline value 10001");
        });
    }

    @Test
    void theKeyAndThePassedThroughHeadersCountForEveryKind() {
        byte[] key = new byte[1024 * 1024];
        BlobRecord record = new BlobRecord(key, new byte[100], List.of(), "blobs", 0, 7, null);
        DescriptorRecordLimit kafkaDefault = DescriptorRecordLimit.of(new Properties());

        for (PlacedBlob placed : List.of(
                new PlacedBlob(record, Placement.INLINE, new byte[100], List.of(), null),
                new PlacedBlob(record, Placement.PACKED, new byte[100_000], List.of(), null),
                PlacedBlob.copiedFrom(new ExternalBytes("s3://raw/clip", 0, 10L << 20), record, List.of()),
                new PlacedBlob(
                        record, Placement.EXTERNAL, null, List.of(), BlobDescriptor.external("s3://raw/clip", 0, 0)))) {
            assertThat(kafkaDefault.refusal(placed))
                    .as("%s with a 1 MiB key", placed.placement())
                    .map(DeadLetter::code)
                    .hasValue(DeadLetterCode.DESCRIPTOR_TOO_LARGE);
        }
        List<Attribute> megabyteOfHeaders =
                List.of(new Attribute("a", new byte[512 * 1024]), new Attribute("b", new byte[512 * 1024]));
        BlobRecord small = new BlobRecord(null, new byte[10], megabyteOfHeaders, "blobs", 0, 8, null);
        assertThat(kafkaDefault.refusal(new PlacedBlob(small, Placement.INLINE, new byte[10], megabyteOfHeaders, null)))
                .as("1 MiB of headers")
                .isPresent();
    }

    @Test
    void theWorstCaseBoundsTheLargestDescriptorTheSinkCanWriteForEachKind() {
        byte[] bytes = new byte[70_000];
        BlobRecord record = new BlobRecord("k".getBytes(UTF_8), bytes, ATTRIBUTES, "robots", 11, 123_456_789L, null);
        String longestSet = "z".repeat(64);

        assertBounded(
                new PlacedBlob(record, Placement.INLINE, bytes, ATTRIBUTES, null),
                row(record, BlobDescriptor.inline(bytes.length), null, bytes, LARGEST_U32));
        assertBounded(
                new PlacedBlob(record, Placement.PACKED, bytes, ATTRIBUTES, null),
                row(
                        record,
                        BlobDescriptor.packed(LARGEST_ENTRY_REFERENCE, bytes.length, LARGEST_U32),
                        longestSet,
                        null,
                        LARGEST_U32));
        assertBounded(
                new PlacedBlob(record, Placement.DEDICATED, bytes, ATTRIBUTES, null),
                row(record, BlobDescriptor.dedicated(bytes.length, LARGEST_U32), longestSet, null, LARGEST_U32));
        BlobDescriptor reference = BlobDescriptor.external("s3://raw/clip.bin", 10, 20);
        assertBounded(
                new PlacedBlob(record, Placement.EXTERNAL, null, ATTRIBUTES, reference),
                row(record, reference, null, null, null));
    }

    /**
     * The figures of docs/spec.md section 4.5: 82 bytes of framing; a header costs its name and value
     * plus a zigzag varint length each (1 byte up to 63); blob.set is counted at 64 characters.
     */
    @Test
    void aPackedBlobWithoutKeyOrAttributesCostsTheDocumentedOverhead() {
        BlobRecord record = new BlobRecord(null, new byte[100_000], List.of(), "blobs", 0, 7, null);
        int kind = 1 + 9 + 1 + 1;
        int position = 1 + 13 + 1 + 20;
        int size = 1 + 9 + 1 + "100000".length();
        int id = 1 + 7 + 1 + 10;
        int uri = 1 + 8 + 1;
        int set = 1 + 8 + 2 + 64;
        int crc32c = 1 + 11 + 1 + 10;
        int features = 1 + 13 + 1 + "blob_object_pack".length();
        int source = 1 + 11 + 1 + "blobs/0/7".length();

        assertThat(DescriptorRecordLimit.worstCaseRecordBytes(
                        new PlacedBlob(record, Placement.PACKED, record.value(), List.of(), null)))
                .as("framing, null key, empty value, header count, headers")
                .isEqualTo(61 + 21 + 1 + 1 + 1 + kind + position + size + id + uri + set + crc32c + features + source);
    }

    @Test
    void theLimitIsTheSmallerOfMaxRequestSizeAndBufferMemoryWithKafkasDefaults() {
        assertThat(DescriptorRecordLimit.of(new Properties()).maxRecordBytes())
                .as("Kafka's max.request.size")
                .isEqualTo(1024 * 1024);

        Properties raised = new Properties();
        raised.setProperty(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, "8388608");
        assertThat(DescriptorRecordLimit.of(raised).maxRecordBytes()).isEqualTo(8 * 1024 * 1024);

        raised.setProperty(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, "67108864");
        assertThat(DescriptorRecordLimit.of(raised).maxRecordBytes())
                .as("Kafka's buffer.memory, 32 MiB")
                .isEqualTo(32 * 1024 * 1024);

        raised.setProperty(ProducerConfig.BUFFER_MEMORY_CONFIG, "2097152");
        assertThat(DescriptorRecordLimit.of(raised).maxRecordBytes()).isEqualTo(2 * 1024 * 1024);
    }

    @Test
    void aRowFitsWhenItsDescriptorRecordDoes() {
        BlobRecord record = new BlobRecord(null, new byte[5000], ATTRIBUTES, "robots", 0, 1, null);
        DescriptorRow row = row(record, BlobDescriptor.inline(5000), null, new byte[5000], 42L);
        int size = DescriptorRecordLimit.recordBytes(row);

        assertThat(new DescriptorRecordLimit(size).fits(row)).isTrue();
        assertThat(new DescriptorRecordLimit(size - 1).fits(row)).isFalse();
    }

    private static void assertBounded(PlacedBlob placed, DescriptorRow largestWritten) {
        assertThat(DescriptorRecordLimit.recordBytes(largestWritten))
                .as("%s", placed.placement())
                .isLessThanOrEqualTo(DescriptorRecordLimit.worstCaseRecordBytes(placed));
    }

    private static PlacedBlob inline(byte[] bytes) {
        BlobRecord record = new BlobRecord("robot-1/imu/7".getBytes(UTF_8), bytes, ATTRIBUTES, "blobs", 3, 99, null);
        return new PlacedBlob(record, Placement.INLINE, bytes, ATTRIBUTES, null);
    }

    private static DescriptorRow row(BlobRecord record, BlobDescriptor blob, String set, byte[] inline, Long crc32c) {
        return new DescriptorRow(
                record.key(),
                record.topic(),
                record.partition(),
                record.offset(),
                null,
                blob,
                set,
                inline,
                crc32c,
                ATTRIBUTES);
    }
}
