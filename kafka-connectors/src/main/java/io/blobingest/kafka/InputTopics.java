package io.blobingest.kafka;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.kafka.clients.admin.Admin;

/**
 * The topics a job ingests: named ({@code kafka.input-topic: a,b,c}) or every topic whose whole
 * name matches a pattern ({@code kafka.input-topic-pattern}), including topics created while the
 * job runs (the source looks for them every {@code kafka.partition-discovery-interval}).
 */
@PublicEvolving
public final class InputTopics implements Serializable {

    private static final long serialVersionUID = 1L;

    /** What Kafka accepts as a topic name. */
    private static final Pattern LEGAL_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    /** Names, in the order given; empty for a pattern. */
    private final List<String> names;
    /** Null for names; compiled once, for {@link #contains} runs per dead letter. */
    private final Pattern pattern;

    private InputTopics(List<String> names, Pattern pattern) {
        this.names = List.copyOf(names);
        this.pattern = pattern;
    }

    /** The topics {@code names}. */
    public static InputTopics named(List<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no input topic named");
        }
        return new InputTopics(names, null);
    }

    /** Every topic whose whole name matches {@code regex}, now and later. */
    public static InputTopics matching(String regex) {
        return new InputTopics(List.of(), Pattern.compile(regex));
    }

    /**
     * The input topics of {@code config}: {@code kafka.input-topic} (one name, or several separated by
     * commas) or {@code kafka.input-topic-pattern}; empty when neither is set.
     *
     * @throws IllegalConfigurationException if both are set, a name is empty or the pattern is not a
     *     regular expression
     */
    public static Optional<InputTopics> fromConfig(ReadableConfig config) {
        Optional<String> names = config.getOptional(BlobKafkaOptions.INPUT_TOPIC);
        Optional<String> regex = config.getOptional(BlobKafkaOptions.INPUT_TOPIC_PATTERN);
        if (names.isPresent() && regex.isPresent()) {
            throw new IllegalConfigurationException("give " + BlobKafkaOptions.INPUT_TOPIC.key() + " or "
                    + BlobKafkaOptions.INPUT_TOPIC_PATTERN.key() + ", not both");
        }
        if (regex.isPresent()) {
            try {
                return Optional.of(matching(regex.get()));
            } catch (PatternSyntaxException e) {
                throw new IllegalConfigurationException(BlobKafkaOptions.INPUT_TOPIC_PATTERN.key()
                        + ": not a regular expression: '" + regex.get() + "' (" + e.getDescription() + ")");
            }
        }
        if (names.isEmpty()) {
            return Optional.empty();
        }
        List<String> topics = new ArrayList<>();
        for (String name : names.get().split(",", -1)) {
            String topic = name.strip();
            if (!LEGAL_NAME.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
                throw new IllegalConfigurationException(BlobKafkaOptions.INPUT_TOPIC.key() + ": '" + topic
                        + "' is no topic name (1 to 249 of a-z A-Z 0-9 . _ -; topics separated by commas)");
            }
            if (topics.contains(topic)) {
                throw new IllegalConfigurationException(
                        BlobKafkaOptions.INPUT_TOPIC.key() + ": '" + topic + "' is named twice");
            }
            topics.add(topic);
        }
        return Optional.of(named(topics));
    }

    /** The named topics; empty for a pattern. */
    public List<String> names() {
        return names;
    }

    /** The pattern; empty for named topics. */
    public Optional<Pattern> pattern() {
        return Optional.ofNullable(pattern);
    }

    /** Whether the job reads {@code topic}: it is named, or its whole name matches the pattern. */
    public boolean contains(String topic) {
        return pattern == null ? names.contains(topic) : pattern.matcher(topic).matches();
    }

    /** Subscribes {@code builder} to these topics. */
    public void subscribe(KafkaSourceBuilder<?> builder) {
        if (pattern == null) {
            builder.setTopics(names);
        } else {
            builder.setTopicPattern(pattern);
        }
    }

    /** The topics as they are now: the named ones, or those that exist and match, sorted. */
    public List<String> resolve(Admin admin, long timeoutMs)
            throws ExecutionException, TimeoutException, InterruptedException {
        if (pattern == null) {
            return names;
        }
        return admin.listTopics().names().get(timeoutMs, TimeUnit.MILLISECONDS).stream()
                .filter(this::contains)
                .sorted()
                .toList();
    }

    /** {@code a, b} or {@code topics matching 'robots\..*'}. */
    @Override
    public String toString() {
        return pattern == null ? String.join(", ", names) : "topics matching '" + pattern.pattern() + "'";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InputTopics other && names.equals(other.names) && Objects.equals(regex(), other.regex());
    }

    @Override
    public int hashCode() {
        return Objects.hash(names, regex());
    }

    private String regex() {
        return pattern == null ? null : pattern.pattern();
    }
}
