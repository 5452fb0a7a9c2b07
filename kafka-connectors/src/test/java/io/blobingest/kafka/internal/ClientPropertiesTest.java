package io.blobingest.kafka.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClientPropertiesTest {

    @Test
    void passesOtherPropertiesThrough() {
        Properties properties = ClientProperties.of(Map.of("security.protocol", "SSL", "linger.ms", "20"));

        assertThat(properties).containsOnly(Map.entry("security.protocol", "SSL"), Map.entry("linger.ms", "20"));
    }

    @ParameterizedTest
    @CsvSource({
        "bootstrap.servers, kafka.bootstrap-servers",
        "group.id, kafka.group-id",
        "transactional.id, kafka.transactional-id-prefix",
        "transaction.timeout.ms, kafka.transaction-timeout",
        "value.deserializer, the connector (records are read as bytes)",
        "key.serializer, the connector (records are written as bytes)",
    })
    void refusesPropertiesOwnedElsewhere(String property, String owner) {
        assertThatThrownBy(() -> ClientProperties.of(Map.of(property, "x")))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessage("kafka.properties must not set '" + property + "': it is set by " + owner);
    }
}
