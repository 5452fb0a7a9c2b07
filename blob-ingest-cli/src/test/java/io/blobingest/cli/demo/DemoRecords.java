package io.blobingest.cli.demo;

import io.blobingest.kafka.DescriptorRecords;
import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.objectlayer.pack.RawPackWriter;
import io.blobingest.placement.BlobHeaders;
import io.blobingest.placement.BlobRecord;
import io.blobingest.placement.BlobRecordClassifier;
import io.blobingest.placement.ClassifiedRecord;
import io.blobingest.placement.DeadLetter;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.PlacementPolicy;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/**
 * The demo's records as the job would leave them, made without Kafka or Flink: each record is
 * classified by the job's classifier under the demo's settings, placed by hand (one Raw Pack and
 * Dedicated sidecars in one blob set; a Packed blob equal to one placed before names its entry, as
 * the demo's exact sharing does) and turned into the descriptor or dead-letter record the job's
 * serializers would write.
 */
final class DemoRecords {

    static final String INPUT_TOPIC = "demo-blobs";
    static final String BLOB_SET = "demo-test-set";
    private static final int PARTITIONS = 2;

    final List<ConsumerRecord<byte[], byte[]>> descriptors = new ArrayList<>();
    final List<ConsumerRecord<byte[], byte[]>> deadLetters = new ArrayList<>();
    /** The descriptor rows by record index. */
    final Map<Integer, DescriptorRow> rows = new HashMap<>();

    private DemoRecords() {}

    static DemoRecords place(DemoWorkload workload, Path base) throws IOException {
        DemoRecords records = new DemoRecords();
        BlobRecordClassifier classifier = classifier(workload);
        Path pack = Path.of(BlobSets.sidecarUri(base.toUri(), BLOB_SET, 1));
        Files.createDirectories(pack.getParent());
        long nextSidecar = 2;
        Map<ByteBuffer, BlobDescriptor> packedEntries = new HashMap<>();
        try (OutputStream packStream = Files.newOutputStream(pack)) {
            RawPackWriter packWriter = RawPackWriter.create(packStream, new RawPackMetadata(BLOB_SET, 1, "test"));
            for (int i = 0; i < workload.count(); i++) {
                BlobRecord input = blobRecord(workload, i);
                if (workload.kind(i) == DemoRecordKind.EXTERNAL_INGEST) {
                    // The job fetches these; here their bytes are placed directly, as the fetch stage would.
                    byte[] bytes = workload.fileBytes(i);
                    records.descriptors.add(records.descriptor(
                            input, BlobDescriptor.inline(bytes.length), bytes, workload.passedThroughHeaders(i)));
                    continue;
                }
                ClassifiedRecord classified = classifier.classify(input);
                if (classified instanceof PlacedBlob placed) {
                    BlobDescriptor descriptor = switch (placed.placement()) {
                        case INLINE -> BlobDescriptor.inline(placed.bytes().length);
                        case PACKED -> {
                            ByteBuffer content = ByteBuffer.wrap(placed.bytes());
                            BlobDescriptor stored = packedEntries.get(content);
                            if (stored == null) {
                                stored = BlobDescriptor.packed(
                                        packWriter.append(placed.bytes()), placed.bytes().length, 1);
                                packedEntries.put(content, stored);
                            }
                            yield stored;
                        }
                        case DEDICATED -> {
                            long id = nextSidecar++;
                            Files.write(Path.of(BlobSets.sidecarUri(base.toUri(), BLOB_SET, id)), placed.bytes());
                            yield BlobDescriptor.dedicated(placed.bytes().length, id);
                        }
                        case EXTERNAL -> placed.external();
                    };
                    records.descriptors.add(records.descriptor(input, descriptor, placed.bytes(), placed.attributes()));
                } else {
                    records.deadLetters.add(records.deadLetter(workload, i, ((DeadLetter) classified).code()));
                }
            }
            packWriter.finish();
        }
        return records;
    }

    static BlobRecordClassifier classifier(DemoWorkload workload) {
        return new BlobRecordClassifier(
                new PlacementPolicy(
                        DemoWorkload.INLINE_MAX_SIZE.getBytes(),
                        PlacementPolicy.LANCE_DEDICATED_THRESHOLD_BYTES,
                        16L << 20),
                List.of(workload.externalPrefix()),
                16L << 30);
    }

    /** Record {@code index} as the job's source reads it; its offset is its index. */
    static BlobRecord blobRecord(DemoWorkload workload, int index) {
        ProducerRecord<byte[], byte[]> record = workload.producerRecord(INPUT_TOPIC, PARTITIONS, index);
        List<DescriptorRow.Attribute> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            headers.add(new DescriptorRow.Attribute(header.key(), header.value()));
        }
        return new BlobRecord(record.key(), record.value(), headers, INPUT_TOPIC, record.partition(), index, null);
    }

    /** A copy of {@code record} at another offset of the topic, as a second delivery would be. */
    static ConsumerRecord<byte[], byte[]> redelivered(ConsumerRecord<byte[], byte[]> record, long offset) {
        return new ConsumerRecord<>(
                record.topic(),
                record.partition(),
                offset,
                0L,
                TimestampType.CREATE_TIME,
                -1,
                -1,
                record.key(),
                record.value(),
                record.headers(),
                Optional.empty());
    }

    private ConsumerRecord<byte[], byte[]> descriptor(
            BlobRecord input, BlobDescriptor descriptor, byte[] bytes, List<DescriptorRow.Attribute> attributes) {
        boolean owned = descriptor.kind() == BlobKind.PACKED || descriptor.kind() == BlobKind.DEDICATED;
        DescriptorRow row = new DescriptorRow(
                input.key(),
                input.topic(),
                input.partition(),
                input.offset(),
                null,
                descriptor,
                owned ? BLOB_SET : null,
                descriptor.kind() == BlobKind.INLINE ? bytes : null,
                bytes == null ? null : crc32c(bytes),
                attributes);
        rows.put(Math.toIntExact(input.offset()), row);
        return consumerRecord(DescriptorRecords.toProducerRecord("demo-descriptors", row, null), descriptors.size());
    }

    private ConsumerRecord<byte[], byte[]> deadLetter(DemoWorkload workload, int index, DeadLetterCode code) {
        ProducerRecord<byte[], byte[]> input = workload.producerRecord("demo-dead-letters", PARTITIONS, index);
        input.headers().add(BlobHeaders.ERROR, code.wireName().getBytes(StandardCharsets.UTF_8));
        return consumerRecord(
                new ProducerRecord<>("demo-dead-letters", 0, input.key(), input.value(), input.headers()),
                deadLetters.size());
    }

    private static ConsumerRecord<byte[], byte[]> consumerRecord(ProducerRecord<byte[], byte[]> record, long offset) {
        return new ConsumerRecord<>(
                record.topic(),
                0,
                offset,
                0L,
                TimestampType.CREATE_TIME,
                -1,
                -1,
                record.key(),
                record.value(),
                new RecordHeaders(record.headers().toArray()),
                Optional.empty());
    }

    private static long crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }
}
