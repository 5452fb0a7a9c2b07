package io.blobingest.kafka;

import io.blobingest.kafka.internal.ClientProperties;
import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import java.io.Serializable;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.record.AbstractRecords;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.RecordBatch;

/**
 * The largest descriptor record the descriptor producer sends, and spec.md section 4's {@code
 * descriptor-too-large} check against it. Kafka's producer refuses a record, before it is sent,
 * whose size estimate exceeds {@code max.request.size} or {@code buffer.memory}
 * ({@code KafkaProducer.ensureValidRecordSize}), with a {@code RecordTooLargeException} that fails
 * the job on every replay; so a blob whose descriptor could not be sent must be refused before it
 * is placed.
 *
 * <p>The size is Kafka's own estimate, {@code AbstractRecords.estimateSizeInBytesUpperBound} (what
 * the producer computes: the record batch header plus the record's worst-case framing), of the
 * record {@link DescriptorRecords} builds. Before placement some descriptor headers are not known
 * yet; they are counted at their longest: {@code blob.position} and {@code blob.size} 20 digits
 * for owned Packed blobs, {@code blob.id} and {@code blob.crc32c} 10 digits, {@code blob.set} the 64
 * characters spec.md section 3 allows, {@code blob.features} every known feature. The key, the
 * passed-through headers, {@code blob.source}, an External {@code blob.uri} and an Inline value are
 * counted as they are.
 */
@PublicEvolving
public final class DescriptorRecordLimit implements Serializable {

    private static final long serialVersionUID = 1L;

    /** spec.md section 3: a blob set name is at most 64 characters. */
    static final String LONGEST_BLOB_SET = "z".repeat(64);

    private static final long LARGEST_U32 = 0xFFFF_FFFFL;
    /** 20 digits, the longest unsigned 64-bit decimal; bit 63 set makes it an entry reference. */
    private static final long LONGEST_POSITION = -1L;

    private final int maxRecordBytes;

    /** @param maxRecordBytes the largest record size, as Kafka's producer estimates it, that may be sent */
    public DescriptorRecordLimit(int maxRecordBytes) {
        if (maxRecordBytes <= 0) {
            throw new IllegalArgumentException("descriptor record limit must be > 0 bytes, found " + maxRecordBytes);
        }
        this.maxRecordBytes = maxRecordBytes;
    }

    /**
     * The limit of a producer configured with {@code producerProperties}: the smaller of its {@code
     * max.request.size} and {@code buffer.memory}, Kafka's defaults where they are not set.
     *
     * @throws org.apache.kafka.common.config.ConfigException if either is not a number
     */
    public static DescriptorRecordLimit of(Properties producerProperties) {
        int maxRequestSize = (Integer) ClientProperties.producerSetting(
                producerProperties, ProducerConfig.MAX_REQUEST_SIZE_CONFIG, ConfigDef.Type.INT);
        long bufferMemory = (Long) ClientProperties.producerSetting(
                producerProperties, ProducerConfig.BUFFER_MEMORY_CONFIG, ConfigDef.Type.LONG);
        return new DescriptorRecordLimit((int) Math.min(maxRequestSize, bufferMemory));
    }

    /** The largest record, as Kafka's producer estimates its size, that the descriptor producer sends. */
    public int maxRecordBytes() {
        return maxRecordBytes;
    }

    /**
     * The {@code descriptor-too-large} dead letter for {@code placed}, if the descriptor record it
     * would get can exceed the limit whatever blob set, sidecar id and entry it is placed in.
     */
    public Optional<DeadLetter> refusal(PlacedBlob placed) {
        long size = worstCaseRecordBytes(placed);
        if (size <= maxRecordBytes) {
            return Optional.empty();
        }
        BlobRecord record = placed.record();
        return Optional.of(new DeadLetter(
                record,
                DeadLetterCode.DESCRIPTOR_TOO_LARGE,
                "its "
                        + placed.placement().name().toLowerCase(Locale.ROOT) + " descriptor record would take up to "
                        + size + " bytes (key " + length(record.key()) + ", inline value " + inlineLength(placed)
                        + ", " + placed.attributes().size()
                        + " passed-through headers), more than the descriptor producer's "
                        + maxRecordBytes + " (the smaller of its " + ProducerConfig.MAX_REQUEST_SIZE_CONFIG + " and "
                        + ProducerConfig.BUFFER_MEMORY_CONFIG + ", set with " + BlobKafkaOptions.CLIENT_PROPERTIES.key()
                        + ")"));
    }

    /** Whether the descriptor record of {@code row}, exactly as {@link DescriptorRecords} writes it, fits. */
    public boolean fits(DescriptorRow row) {
        return recordBytes(row) <= maxRecordBytes;
    }

    /** Kafka's producer-side size estimate of {@code row}'s descriptor record. */
    static int recordBytes(DescriptorRow row) {
        ProducerRecord<byte[], byte[]> record = DescriptorRecords.toProducerRecord("descriptors", row, null);
        return AbstractRecords.estimateSizeInBytesUpperBound(
                RecordBatch.CURRENT_MAGIC_VALUE,
                CompressionType.NONE,
                record.key(),
                record.value(),
                record.headers().toArray());
    }

    /** The size of the largest descriptor record {@code placed} can get, wherever the sink places it. */
    static int worstCaseRecordBytes(PlacedBlob placed) {
        return recordBytes(worstCaseRow(placed));
    }

    private static DescriptorRow worstCaseRow(PlacedBlob placed) {
        BlobRecord record = placed.record();
        long size = placed.placedLength();
        return switch (placed.placement()) {
            case INLINE -> row(record, placed, BlobDescriptor.inline(size), null, placed.bytes(), LARGEST_U32);
            case PACKED ->
                row(
                        record,
                        placed,
                        BlobDescriptor.packed(LONGEST_POSITION, size, LARGEST_U32),
                        LONGEST_BLOB_SET,
                        null,
                        LARGEST_U32);
            case DEDICATED ->
                row(record, placed, BlobDescriptor.dedicated(size, LARGEST_U32), LONGEST_BLOB_SET, null, LARGEST_U32);
            case EXTERNAL -> row(record, placed, placed.external(), null, null, null);
        };
    }

    private static DescriptorRow row(
            BlobRecord record, PlacedBlob placed, BlobDescriptor blob, String blobSet, byte[] inlineData, Long crc32c) {
        return new DescriptorRow(
                record.key(),
                record.topic(),
                record.partition(),
                record.offset(),
                record.timestamp(),
                blob,
                blobSet,
                inlineData,
                crc32c,
                placed.attributes());
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }

    private static int inlineLength(PlacedBlob placed) {
        return placed.placement() == Placement.INLINE ? placed.bytes().length : 0;
    }
}
