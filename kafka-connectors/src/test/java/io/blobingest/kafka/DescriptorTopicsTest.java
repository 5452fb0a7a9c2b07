package io.blobingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.configuration.IllegalConfigurationException;
import org.junit.jupiter.api.Test;

class DescriptorTopicsTest {

    @Test
    void aNameWithoutTopicIsOneTopicForEveryInput() {
        DescriptorTopics topics = DescriptorTopics.of("descriptors");

        assertThat(topics.perInputTopic()).isFalse();
        assertThat(topics.single()).contains("descriptors");
        assertThat(topics.forInput("robots.cam")).isEqualTo("descriptors");
        assertThat(topics.names("descriptors")).isTrue();
        assertThat(topics.names("robots.cam.descriptors")).isFalse();
        assertThat(topics.inputOf("descriptors")).isEmpty();
    }

    @Test
    void aNameWithTopicGivesEachInputTopicItsOwn() {
        DescriptorTopics topics = DescriptorTopics.of("out.{topic}.descriptors");

        assertThat(topics.perInputTopic()).isTrue();
        assertThat(topics.single()).isEmpty();
        assertThat(topics.forInput("robots.cam")).isEqualTo("out.robots.cam.descriptors");
        assertThat(topics.inputOf("out.robots.cam.descriptors")).contains("robots.cam");
        assertThat(topics.names("out.robots.cam.descriptors")).isTrue();
        assertThat(topics.names("out..descriptors"))
                .as("no input topic is empty")
                .isFalse();
        assertThat(topics.names("robots.cam.descriptors")).isFalse();
        assertThat(topics.names("out.robots.cam")).isFalse();
    }

    @Test
    void aNameThatCannotBeATopicOrNamesTopicTwiceOrAloneIsRefused() {
        assertThatThrownBy(() -> DescriptorTopics.of("{topic}.descriptors.{topic}"))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessage("kafka.descriptor-topic: '{topic}.descriptors.{topic}' names {topic} more than once");
        assertThatThrownBy(() -> DescriptorTopics.of("{topic}/descriptors"))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessage("kafka.descriptor-topic: '{topic}/descriptors' is no topic name around {topic}"
                        + " (a-z A-Z 0-9 . _ -)");
        assertThatThrownBy(() -> DescriptorTopics.of("{topic}"))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessage("kafka.descriptor-topic: '{topic}' would write descriptors into their input topics;"
                        + " add a prefix or suffix");
    }
}
