package io.blobingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.junit.jupiter.api.Test;

class InputTopicsTest {

    @Test
    void severalTopicsAreNamedSeparatedByCommasInTheirOrder() {
        InputTopics topics = parse(BlobKafkaOptions.INPUT_TOPIC.key(), " cam-front, cam-rear ,lidar");

        assertThat(topics.names()).containsExactly("cam-front", "cam-rear", "lidar");
        assertThat(topics.pattern()).isEmpty();
        assertThat(topics.contains("cam-rear")).isTrue();
        assertThat(topics.contains("cam")).isFalse();
        assertThat(topics).hasToString("cam-front, cam-rear, lidar");
    }

    @Test
    void aPatternMatchesWholeNamesOnly() {
        InputTopics topics = parse(BlobKafkaOptions.INPUT_TOPIC_PATTERN.key(), "robots\\..*");

        assertThat(topics.names()).isEmpty();
        assertThat(topics.contains("robots.cam-front")).isTrue();
        assertThat(topics.contains("old.robots.cam-front")).isFalse();
        assertThat(topics.contains("robots")).isFalse();
        assertThat(topics).hasToString("topics matching 'robots\\..*'");
    }

    @Test
    void aPatternLeavesOutTheDescriptorTopicsOfItsTopics() {
        Configuration config = new Configuration();
        config.set(BlobKafkaOptions.INPUT_TOPIC_PATTERN, "robots\\..*");
        config.set(BlobKafkaOptions.DESCRIPTOR_TOPIC, "{topic}.descriptors");
        InputTopics topics = InputTopics.fromConfig(config).orElseThrow();

        assertThat(topics.contains("robots.cam")).isTrue();
        assertThat(topics.contains("robots.cam.descriptors"))
                .as("robots.cam's descriptors")
                .isFalse();
        assertThat(topics.contains("robots.cam.descriptors.descriptors")).isFalse();
        assertThat(topics.contains("robots.descriptors"))
                .as("the descriptor topic of 'robots', which the pattern does not take in")
                .isTrue();
        assertThat(parse(BlobKafkaOptions.INPUT_TOPIC_PATTERN.key(), "robots\\..*")
                        .excludingOutputOf(DescriptorTopics.of("descriptors"))
                        .contains("robots.cam.descriptors"))
                .as("with one descriptor topic")
                .isTrue();
    }

    @Test
    void neitherOptionIsNoInput() {
        assertThat(InputTopics.fromConfig(new Configuration())).isEmpty();
    }

    @Test
    void bothOptionsAreRefused() {
        Configuration config = new Configuration();
        config.setString(BlobKafkaOptions.INPUT_TOPIC.key(), "a");
        config.setString(BlobKafkaOptions.INPUT_TOPIC_PATTERN.key(), "a.*");

        assertThatThrownBy(() -> InputTopics.fromConfig(config))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessage("give kafka.input-topic or kafka.input-topic-pattern, not both");
    }

    @Test
    void anEmptyOrIllegalOrRepeatedNameIsRefusedNamingIt() {
        for (String names : List.of("a,,b", "a,b/c", "a, ")) {
            assertThatThrownBy(() -> parse(BlobKafkaOptions.INPUT_TOPIC.key(), names))
                    .as(names)
                    .isInstanceOf(IllegalConfigurationException.class)
                    .hasMessageStartingWith("kafka.input-topic: '")
                    .hasMessageEndingWith(
                            "' is no topic name (1 to 249 of a-z A-Z 0-9 . _ -; topics separated by" + " commas)");
        }
        assertThatThrownBy(() -> parse(BlobKafkaOptions.INPUT_TOPIC.key(), "a,b,a"))
                .hasMessage("kafka.input-topic: 'a' is named twice");
    }

    @Test
    void aPatternThatDoesNotCompileIsRefusedSayingWhy() {
        assertThatThrownBy(() -> parse(BlobKafkaOptions.INPUT_TOPIC_PATTERN.key(), "robots.(cam"))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageStartingWith("kafka.input-topic-pattern: not a regular expression: 'robots.(cam' (");
    }

    private static InputTopics parse(String key, String value) {
        Configuration config = new Configuration();
        config.setString(key, value);
        return InputTopics.fromConfig(config).orElseThrow();
    }
}
