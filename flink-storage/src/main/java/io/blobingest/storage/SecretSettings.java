package io.blobingest.storage;

import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Keeps secrets of map-valued options ({@code kafka.properties}, {@code sink.lance.storage-options})
 * out of Flink's logs and web UI. Flink shows a configuration value unless its key looks sensitive
 * ({@link GlobalConfiguration#isSensitive}: it names a password, secret, token, JAAS configuration
 * and the like), and then shows {@code ******}. A map option written on one line, {@code
 * kafka.properties: sasl.jaas.config:'... password=...'}, has an innocent key, so its secret would
 * be shown whole; written as a key of its own, {@code kafka.properties.sasl.jaas.config: ...},
 * Flink masks it and still reads it into the same map. So a secret on the one line is refused.
 */
@Internal
public final class SecretSettings {

    private SecretSettings() {}

    /**
     * @throws IllegalConfigurationException naming (never showing) each secret of {@code option}
     *     written on its one line, and the key to write it under instead
     */
    public static void requireMaskable(ReadableConfig config, ConfigOption<Map<String, String>> option) {
        if (!(config instanceof Configuration configuration)) {
            return;
        }
        String oneLine = configuration.toMap().get(option.key());
        if (oneLine == null) {
            return;
        }
        Configuration alone = new Configuration();
        alone.setString(option.key(), oneLine);
        List<String> secrets = alone.get(option).keySet().stream()
                .filter(GlobalConfiguration::isSensitive)
                .sorted()
                .toList();
        if (!secrets.isEmpty()) {
            throw new IllegalConfigurationException(option.key() + " holds " + String.join(", ", secrets)
                    + " on its one line, where Flink's logs and web UI show it: write each as a key of its own, "
                    + option.key() + "." + secrets.get(0) + ": <value>, which Flink masks");
        }
    }
}
