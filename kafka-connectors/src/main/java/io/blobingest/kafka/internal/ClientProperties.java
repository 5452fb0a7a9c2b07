package io.blobingest.kafka.internal;

import io.blobingest.kafka.BlobKafkaOptions;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The extra client properties of {@link BlobKafkaOptions#CLIENT_PROPERTIES}, refusing those that
 * would silently override a dedicated option or the connectors' own settings.
 */
@Internal
public final class ClientProperties {

    private static final Map<String, String> OWNED = Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            BlobKafkaOptions.BOOTSTRAP_SERVERS.key(),
            ConsumerConfig.GROUP_ID_CONFIG,
            BlobKafkaOptions.GROUP_ID.key(),
            ProducerConfig.TRANSACTIONAL_ID_CONFIG,
            BlobKafkaOptions.TRANSACTIONAL_ID_PREFIX.key(),
            ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
            BlobKafkaOptions.TRANSACTION_TIMEOUT.key(),
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            "the connector (records are read as bytes)",
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            "the connector (records are read as bytes)",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            "the connector (records are written as bytes)",
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            "the connector (records are written as bytes)");

    private ClientProperties() {}

    /**
     * A producer setting as a producer given {@code properties} reads it: parsed as Kafka parses it,
     * Kafka's default when it is not set.
     *
     * @throws org.apache.kafka.common.config.ConfigException if the value does not parse as {@code type}
     */
    public static Object producerSetting(Properties properties, String name, ConfigDef.Type type) {
        Object value = properties.getOrDefault(
                name, ProducerConfig.configDef().defaultValues().get(name));
        return ConfigDef.parseType(name, value, type);
    }

    /** @throws IllegalConfigurationException if a property is set by a dedicated option instead */
    public static Properties of(Map<String, String> extra) {
        Properties properties = new Properties();
        for (Map.Entry<String, String> entry : extra.entrySet()) {
            String owner = OWNED.get(entry.getKey());
            if (owner != null) {
                throw new IllegalConfigurationException(BlobKafkaOptions.CLIENT_PROPERTIES.key() + " must not set '"
                        + entry.getKey() + "': it is set by " + owner);
            }
            properties.setProperty(entry.getKey(), entry.getValue());
        }
        return properties;
    }
}
