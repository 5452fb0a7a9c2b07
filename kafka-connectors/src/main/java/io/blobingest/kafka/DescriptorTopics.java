package io.blobingest.kafka;

import java.io.Serializable;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.IllegalConfigurationException;

/**
 * Where a descriptor goes: one topic for all inputs ({@code kafka.descriptor-topic: descriptors}), or
 * a topic per input topic when the name holds {@value #TOPIC} ({@code {topic}.descriptors}: the
 * descriptors of {@code robots.cam-front} go to {@code robots.cam-front.descriptors}).
 */
@PublicEvolving
public final class DescriptorTopics implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Stands for the input record's topic in {@code kafka.descriptor-topic}. */
    public static final String TOPIC = "{topic}";

    /** What Kafka accepts in a topic name. */
    private static final Pattern LEGAL_CHARACTERS = Pattern.compile("[a-zA-Z0-9._-]*");

    private final String name;
    /** Null for one topic; else what comes before and after {@value #TOPIC}. */
    private final String prefix;

    private final String suffix;

    private DescriptorTopics(String name, String prefix, String suffix) {
        this.name = name;
        this.prefix = prefix;
        this.suffix = suffix;
    }

    /**
     * @param name a topic, or a name holding {@value #TOPIC} once
     * @throws IllegalConfigurationException if the name cannot be a topic, or holds {@value #TOPIC}
     *     more than once
     */
    public static DescriptorTopics of(String name) {
        Objects.requireNonNull(name, "name");
        int at = name.indexOf(TOPIC);
        if (at < 0) {
            return new DescriptorTopics(name, null, null);
        }
        String prefix = name.substring(0, at);
        String suffix = name.substring(at + TOPIC.length());
        if (suffix.contains(TOPIC)) {
            throw new IllegalConfigurationException(
                    BlobKafkaOptions.DESCRIPTOR_TOPIC.key() + ": '" + name + "' names " + TOPIC + " more than once");
        }
        if (!LEGAL_CHARACTERS.matcher(prefix + suffix).matches()) {
            throw new IllegalConfigurationException(BlobKafkaOptions.DESCRIPTOR_TOPIC.key() + ": '" + name
                    + "' is no topic name around " + TOPIC + " (a-z A-Z 0-9 . _ -)");
        }
        if (prefix.isEmpty() && suffix.isEmpty()) {
            throw new IllegalConfigurationException(BlobKafkaOptions.DESCRIPTOR_TOPIC.key() + ": '" + name
                    + "' would write descriptors into their input topics; add a prefix or suffix");
        }
        return new DescriptorTopics(name, prefix, suffix);
    }

    /** Whether each input topic has a descriptor topic of its own. */
    public boolean perInputTopic() {
        return prefix != null;
    }

    /** The one descriptor topic; empty when each input topic has its own. */
    public Optional<String> single() {
        return prefix == null ? Optional.of(name) : Optional.empty();
    }

    /** The descriptor topic of the records of {@code inputTopic}. */
    public String forInput(String inputTopic) {
        return prefix == null ? name : prefix + inputTopic + suffix;
    }

    /**
     * The input topic whose own descriptor topic {@code topic} is: {@code x} for {@code
     * {topic}.descriptors} and {@code x.descriptors}; empty if it is none, and always with one topic.
     */
    public Optional<String> inputOf(String topic) {
        if (prefix == null) {
            return Optional.empty();
        }
        if (topic.length() > prefix.length() + suffix.length() && topic.startsWith(prefix) && topic.endsWith(suffix)) {
            return Optional.of(topic.substring(prefix.length(), topic.length() - suffix.length()));
        }
        return Optional.empty();
    }

    /** Whether {@code topic} is a descriptor topic of this job's, for some input topic. */
    public boolean names(String topic) {
        return prefix == null ? name.equals(topic) : inputOf(topic).isPresent();
    }

    /** The option's value: the topic, or the name holding {@value #TOPIC}. */
    @Override
    public String toString() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DescriptorTopics other && name.equals(other.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }
}
