package io.blobingest.kafka.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.kafka.testing.KafkaBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class EmbeddedKafkaBrokerITCase {

    @RegisterExtension
    static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

    @Test
    void aRestartedBrokerKeepsItsAddressAndRecordsAndTakesNewOnes() throws Exception {
        KAFKA.createTopic("restart", 2);
        KAFKA.send(List.of(record("before-0"), record("before-1")));
        String address = KAFKA.bootstrapServers();

        KAFKA.restartBroker();

        assertThat(KAFKA.bootstrapServers())
                .as("bootstrap address after the restart")
                .isEqualTo(address);
        KAFKA.send(List.of(record("after-0")));
        assertThat(KAFKA.drainCommitted("restart"))
                .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder("before-0", "before-1", "after-0");
    }

    private static ProducerRecord<byte[], byte[]> record(String value) {
        return new ProducerRecord<>("restart", value.getBytes(StandardCharsets.UTF_8));
    }
}
