package io.blobingest.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ConfigurationUtils;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.junit.jupiter.api.Test;

class SecretSettingsTest {

    private static final ConfigOption<Map<String, String>> PROPERTIES =
            ConfigOptions.key("kafka.properties").mapType().defaultValue(Map.of());
    private static final String CANARY = "s3cr3t-canary";
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"u\" password=\"" + CANARY + "\";";

    @Test
    void aSecretOnTheOneLineIsRefusedNamingItsKeyNeverItsValue() {
        Configuration config = new Configuration();
        config.setString("kafka.properties", "security.protocol:SASL_PLAINTEXT,sasl.jaas.config:'" + JAAS + "'");

        assertThatThrownBy(() -> SecretSettings.requireMaskable(config, PROPERTIES))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("kafka.properties holds sasl.jaas.config on its one line")
                .hasMessageContaining("kafka.properties.sasl.jaas.config: <value>")
                .hasMessageNotContaining(CANARY);
    }

    @Test
    void aSecretUnderItsOwnKeyIsReadIntoTheMapAndMaskedByFlink() {
        Configuration config = new Configuration();
        config.setString("kafka.properties.sasl.jaas.config", JAAS);
        config.setString("kafka.properties.security.protocol", "SASL_PLAINTEXT");

        SecretSettings.requireMaskable(config, PROPERTIES);

        assertThat(config.get(PROPERTIES))
                .containsEntry("sasl.jaas.config", JAAS)
                .containsEntry("security.protocol", "SASL_PLAINTEXT");
        assertThat(ConfigurationUtils.hideSensitiveValues(config.toMap()).toString())
                .doesNotContain(CANARY);
    }

    @Test
    void settingsWithoutSecretsMayStayOnOneLine() {
        Configuration config = new Configuration();
        config.setString("kafka.properties", "security.protocol:SSL,max.request.size:2097152");

        SecretSettings.requireMaskable(config, PROPERTIES);
    }
}
