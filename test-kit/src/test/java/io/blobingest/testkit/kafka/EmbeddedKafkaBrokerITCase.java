package io.blobingest.testkit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaBrokerITCase {

    /** Enough topics that, with a busy disk, some would be produced to before their leader serves them. */
    private static final int TOPICS_CREATED_UNDER_LOAD = 100;

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @Test
    void aRestartedBrokerKeepsItsAddressAndRecordsAndTakesNewOnes() throws Exception {
        KAFKA.createTopic("restart", 2);
        KAFKA.send(List.of(record("restart", "before-0"), record("restart", "before-1")));
        String address = KAFKA.bootstrapServers();

        KAFKA.restartBroker();

        assertThat(KAFKA.bootstrapServers())
                .as("bootstrap address after the restart")
                .isEqualTo(address);
        KAFKA.send(List.of(record("restart", "after-0")));
        assertThat(KAFKA.drainCommitted("restart"))
                .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder("before-0", "before-1", "after-0");
    }

    /**
     * The broker names a new partition's leader before that leader has created the partition's log,
     * which takes long when the disk is busy. A send in between fails with {@code
     * NOT_LEADER_OR_FOLLOWER}, and an idempotent producer with requests in flight then loses the
     * failed batch (KAFKA-15591): a test's send to a topic it had just created timed out after two
     * minutes. The producer here does not retry, so any send before the leader serves fails.
     */
    @Test
    void aCreatedTopicTakesRecordsAtOnceWhileTheDiskIsBusy(@TempDir Path dir) throws Exception {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        config.put(ProducerConfig.RETRIES_CONFIG, "0");
        List<String> refused = new ArrayList<>();
        try (BusyDisk busy = new BusyDisk(dir.resolve("busy"));
                KafkaProducer<byte[], byte[]> producer =
                        new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < TOPICS_CREATED_UNDER_LOAD; i++) {
                String topic = "created-" + i;
                KAFKA.createTopic(topic, 2);
                for (int partition = 0; partition < 2; partition++) {
                    try {
                        producer.send(new ProducerRecord<>(topic, partition, null, new byte[16]))
                                .get();
                    } catch (ExecutionException e) {
                        refused.add(topic + "-" + partition + ": " + e.getCause());
                    }
                }
            }
        }
        assertThat(refused).as("sends refused right after createTopic").isEmpty();
    }

    /** Writes and forces a file until closed, as a running job does: the broker's own file creation waits. */
    private static final class BusyDisk implements AutoCloseable {
        private static final int CHUNK_BYTES = 1 << 20;
        private static final int CHUNKS_PER_FORCE = 64;
        private static final long MAX_FILE_BYTES = 1L << 30;

        private final AtomicBoolean stopped = new AtomicBoolean();
        private final Thread writer;
        private volatile IOException failure;

        BusyDisk(Path file) {
            writer = new Thread(() -> write(file), "busy-disk");
            writer.setDaemon(true);
            writer.start();
        }

        private void write(Path file) {
            ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK_BYTES);
            try (FileChannel channel = FileChannel.open(
                    file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE)) {
                while (!stopped.get()) {
                    for (int i = 0; i < CHUNKS_PER_FORCE; i++) {
                        chunk.clear();
                        channel.write(chunk);
                    }
                    channel.force(false);
                    if (channel.size() > MAX_FILE_BYTES) {
                        channel.truncate(0);
                    }
                }
            } catch (IOException e) {
                failure = e;
            }
        }

        @Override
        public void close() throws InterruptedException {
            stopped.set(true);
            writer.join();
            if (failure != null) {
                throw new UncheckedIOException("the busy disk's writer failed", failure);
            }
        }
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String value) {
        return new ProducerRecord<>(topic, value.getBytes(StandardCharsets.UTF_8));
    }
}
