package io.blobingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.kafka.DescriptorRecords;
import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.testkit.kafka.KafkaBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code descriptors tail} against a real broker: committed descriptor records only, one line each. */
class DescriptorsTailITCase {

    private static final String TOPIC = "descriptors";

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void tailPrintsCommittedDescriptorsSkipsAbortedOnesAndReportsMalformedRecords() throws Exception {
        KAFKA.createTopic(TOPIC, 1);
        try (KafkaProducer<byte[], byte[]> producer = transactionalProducer()) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(descriptor(1, BlobDescriptor.inline(3), null, new byte[] {1, 2, 3}, 11L));
            producer.send(descriptor(2, BlobDescriptor.packed(0x8000_0000_0000_0004L, 30_211, 1), "set-a", null, 22L));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(descriptor(3, BlobDescriptor.dedicated(5_000_000, 2), "set-a", null, 33L));
            producer.flush();
            producer.abortTransaction();
        }
        KAFKA.send(
                List.of(new ProducerRecord<>(TOPIC, "not a descriptor".getBytes(StandardCharsets.UTF_8), new byte[0])));
        try (KafkaProducer<byte[], byte[]> producer = transactionalProducer()) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(descriptor(4, BlobDescriptor.external("file:///data/clip.mp4", 10, 20), null, null, null));
            producer.commitTransaction();
        }

        CliRun run = CliRun.of(
                "descriptors",
                "tail",
                "--bootstrap-servers",
                KAFKA.bootstrapServers(),
                "--topic",
                TOPIC,
                "--from-beginning",
                "--limit",
                "3");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(BlobIngestCli.EXIT_FAULT);
        assertThat(run.out().lines())
                .containsExactly(
                        "blobs/0/1 inline key=robot-1/1 position=0 size=3 blob_id=0 blob_set=- uri=- crc32c=11"
                                + " timestamp=2025-12-06T05:46:40.001Z [seq=1]",
                        "blobs/0/2 packed key=robot-1/2 position=9223372036854775812 size=30211 blob_id=1"
                                + " blob_set=set-a uri=-"
                                + " crc32c=22 timestamp=2025-12-06T05:46:40.002Z [seq=2]",
                        "blobs/0/4 external key=robot-1/4 position=10 size=20 blob_id=0 blob_set=-"
                                + " uri=file:///data/clip.mp4"
                                + " crc32c=- timestamp=- [seq=4]");
        assertThat(run.err())
                .contains("skipped: descriptor record descriptors/0/")
                .contains("header blob.kind");
    }

    private static ProducerRecord<byte[], byte[]> descriptor(
            long offset, BlobDescriptor blob, String blobSet, byte[] inlineData, Long crc32c) {
        DescriptorRow row = new DescriptorRow(
                ("robot-1/" + offset).getBytes(StandardCharsets.UTF_8),
                "blobs",
                0,
                offset,
                offset == 4 ? null : 1_765_000_000_000L + offset,
                blob,
                blobSet,
                inlineData,
                crc32c,
                List.of(new DescriptorRow.Attribute("seq", Long.toString(offset).getBytes(StandardCharsets.UTF_8))));
        return DescriptorRecords.toProducerRecord(TOPIC, row, null);
    }

    private static KafkaProducer<byte[], byte[]> transactionalProducer() {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "descriptors-tail-test");
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
