package io.blobingest.kafka;

import static io.blobingest.placement.BlobHeaders.unsignedDecimal;
import static io.blobingest.placement.BlobHeaders.utf8;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobFeatures;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.BlobHeaders;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The descriptor topic's record format (spec.md section 4), both ways. Headers are written in a fixed
 * order: {@code blob.kind, blob.position, blob.size, blob.id, blob.uri}, {@code blob.set} (owned
 * sidecar kinds only), {@code blob.crc32c} (unless absent), {@code blob.features} (empty when none),
 * {@code blob.source}, {@code blob.timestamp} (when the input had one), then the passed-through
 * attributes in their order.
 */
@PublicEvolving
public final class DescriptorRecords {

    private static final byte[] NO_VALUE = new byte[0];
    private static final Set<String> KNOWN_FEATURES = Set.of(BlobFeatures.BLOB_OBJECT_PACK);
    private static final Set<String> DESCRIPTOR_HEADERS = Set.of(
            BlobHeaders.KIND,
            BlobHeaders.POSITION,
            BlobHeaders.SIZE,
            BlobHeaders.ID,
            BlobHeaders.URI,
            BlobHeaders.SET,
            BlobHeaders.CRC32C,
            BlobHeaders.FEATURES,
            BlobHeaders.SOURCE,
            BlobHeaders.TIMESTAMP);

    private DescriptorRecords() {}

    /**
     * @param timestamp the record timestamp, null to let the producer choose
     * @throws IllegalArgumentException if an attribute uses a header name spec.md section 4 reserves
     */
    public static ProducerRecord<byte[], byte[]> toProducerRecord(String topic, DescriptorRow row, Long timestamp) {
        BlobDescriptor blob = row.blob();
        List<Header> headers = new ArrayList<>(10 + row.attributes().size());
        headers.add(
                new RecordHeader(BlobHeaders.KIND, unsignedDecimal(blob.kind().value())));
        headers.add(new RecordHeader(BlobHeaders.POSITION, unsignedDecimal(blob.position())));
        headers.add(new RecordHeader(BlobHeaders.SIZE, unsignedDecimal(blob.size())));
        headers.add(new RecordHeader(BlobHeaders.ID, unsignedDecimal(blob.blobId())));
        headers.add(new RecordHeader(BlobHeaders.URI, utf8(blob.blobUri())));
        if (row.blobSet() != null) {
            headers.add(new RecordHeader(BlobHeaders.SET, utf8(row.blobSet())));
        }
        if (row.crc32c() != null) {
            headers.add(new RecordHeader(BlobHeaders.CRC32C, unsignedDecimal(row.crc32c())));
        }
        headers.add(new RecordHeader(BlobHeaders.FEATURES, utf8(String.join(",", row.requiredFeatures()))));
        headers.add(new RecordHeader(BlobHeaders.SOURCE, utf8(row.source())));
        if (row.sourceTimestamp() != null) {
            headers.add(new RecordHeader(BlobHeaders.TIMESTAMP, unsignedDecimal(row.sourceTimestamp())));
        }
        for (Attribute attribute : row.attributes()) {
            if (BlobHeaders.RESERVED.contains(attribute.name())) {
                throw new IllegalArgumentException("descriptor of " + row.source() + ": attribute '" + attribute.name()
                        + "' uses a header name reserved by spec.md section 4");
            }
            headers.add(new RecordHeader(attribute.name(), attribute.value()));
        }
        byte[] value = blob.kind() == BlobKind.INLINE ? row.inlineData() : NO_VALUE;
        return new ProducerRecord<>(topic, null, timestamp, row.key(), value, headers);
    }

    /**
     * Reads a descriptor record back.
     *
     * @throws IllegalArgumentException naming the record and the header when the record does not
     *     follow the format, or lists a feature this reader does not know
     */
    public static DescriptorRow parse(ConsumerRecord<byte[], byte[]> record) {
        String where = "descriptor record " + record.topic() + "/" + record.partition() + "/" + record.offset();
        Map<String, byte[]> descriptorHeaders = new HashMap<>();
        List<Attribute> attributes = new ArrayList<>();
        for (Header header : record.headers()) {
            if (!BlobHeaders.RESERVED.contains(header.key())) {
                attributes.add(new Attribute(header.key(), header.value()));
            } else if (!DESCRIPTOR_HEADERS.contains(header.key())) {
                throw new IllegalArgumentException(
                        where + ": header " + header.key() + " does not belong in a descriptor record");
            } else if (descriptorHeaders.put(header.key(), header.value()) != null) {
                throw new IllegalArgumentException(where + ": header " + header.key() + " appears more than once");
            }
        }
        Fields fields = new Fields(where, descriptorHeaders);
        int kind = (int) fields.unsignedInt(BlobHeaders.KIND, 0xFF);
        long position = fields.unsigned(BlobHeaders.POSITION);
        long size = fields.unsigned(BlobHeaders.SIZE);
        long blobId = fields.unsignedInt(BlobHeaders.ID, 0xFFFF_FFFFL);
        String blobUri = fields.text(BlobHeaders.URI);
        BlobDescriptor blob;
        try {
            blob = new BlobDescriptor(BlobKind.fromValue(kind), position, size, blobId, blobUri);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
        byte[] inlineData = inlineData(where, blob.kind(), record.value());
        Long crc32c = fields.has(BlobHeaders.CRC32C) ? fields.unsignedInt(BlobHeaders.CRC32C, 0xFFFF_FFFFL) : null;
        String blobSet = fields.has(BlobHeaders.SET) ? fields.text(BlobHeaders.SET) : null;
        List<String> features = fields.features();
        Source source = fields.source();
        Long timestamp = fields.has(BlobHeaders.TIMESTAMP) ? fields.timestamp() : null;
        DescriptorRow row;
        try {
            row = new DescriptorRow(
                    record.key(),
                    source.topic,
                    source.partition,
                    source.offset,
                    timestamp,
                    blob,
                    blobSet,
                    inlineData,
                    crc32c,
                    attributes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
        if (!features.containsAll(row.requiredFeatures())) {
            throw new IllegalArgumentException(where + ": header " + BlobHeaders.FEATURES + " lists " + features
                    + " but the descriptor requires " + row.requiredFeatures());
        }
        return row;
    }

    private static byte[] inlineData(String where, BlobKind kind, byte[] value) {
        if (kind == BlobKind.INLINE) {
            if (value == null) {
                throw new IllegalArgumentException(
                        where + ": an Inline descriptor needs its bytes as the value, found null");
            }
            return value;
        }
        if (value != null && value.length > 0) {
            throw new IllegalArgumentException(
                    where + ": a " + kind + " descriptor has an empty value, found " + value.length + " bytes");
        }
        return null;
    }

    private record Source(String topic, int partition, long offset) {}

    /** The descriptor headers of one record, decoded with the record named in every error. */
    private static final class Fields {
        private final String where;
        private final Map<String, byte[]> headers;

        Fields(String where, Map<String, byte[]> headers) {
            this.where = where;
            this.headers = headers;
        }

        boolean has(String name) {
            return headers.containsKey(name);
        }

        String text(String name) {
            byte[] value = required(name);
            try {
                return BlobHeaders.decodeUtf8(value);
            } catch (CharacterCodingException e) {
                throw invalid(name, "expected UTF-8 text, found " + BlobHeaders.printable(value));
            }
        }

        long unsigned(String name) {
            try {
                return BlobHeaders.parseUnsignedDecimal(required(name));
            } catch (NumberFormatException e) {
                throw invalid(name, e.getMessage());
            }
        }

        long unsignedInt(String name, long max) {
            long value = unsigned(name);
            if (Long.compareUnsigned(value, max) > 0) {
                throw invalid(name, "expected at most " + max + ", found " + Long.toUnsignedString(value));
            }
            return value;
        }

        List<String> features() {
            String list = text(BlobHeaders.FEATURES);
            List<String> features = list.isEmpty() ? List.of() : Arrays.asList(list.split(",", -1));
            for (String feature : features) {
                if (!KNOWN_FEATURES.contains(feature)) {
                    throw invalid(
                            BlobHeaders.FEATURES,
                            "unknown required feature '" + feature + "' (this reader knows " + KNOWN_FEATURES + ")");
                }
            }
            return features;
        }

        Source source() {
            String text = text(BlobHeaders.SOURCE);
            int offsetAt = text.lastIndexOf('/');
            int partitionAt = offsetAt <= 0 ? -1 : text.lastIndexOf('/', offsetAt - 1);
            if (partitionAt <= 0) {
                throw invalid(BlobHeaders.SOURCE, "expected topic/partition/offset, found '" + text + "'");
            }
            try {
                int partition = Integer.parseInt(text.substring(partitionAt + 1, offsetAt));
                long offset = Long.parseLong(text.substring(offsetAt + 1));
                if (partition < 0 || offset < 0) {
                    throw new NumberFormatException("negative");
                }
                return new Source(text.substring(0, partitionAt), partition, offset);
            } catch (NumberFormatException e) {
                throw invalid(BlobHeaders.SOURCE, "expected topic/partition/offset, found '" + text + "'");
            }
        }

        long timestamp() {
            long value = unsigned(BlobHeaders.TIMESTAMP);
            if (value < 0) {
                throw invalid(
                        BlobHeaders.TIMESTAMP,
                        "expected milliseconds since the epoch, found " + Long.toUnsignedString(value));
            }
            return value;
        }

        private byte[] required(String name) {
            byte[] value = headers.get(name);
            if (value == null) {
                throw invalid(name, has(name) ? "the header has no value" : "the header is missing");
            }
            return value;
        }

        private IllegalArgumentException invalid(String name, String problem) {
            return new IllegalArgumentException(where + ": header " + name + ": " + problem);
        }
    }
}
