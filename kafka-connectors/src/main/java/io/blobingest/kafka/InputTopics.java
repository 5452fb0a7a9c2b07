package io.blobingest.kafka;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.subscriber.KafkaSubscriber;
import org.apache.flink.connector.kafka.util.AdminUtils;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.TopicPartition;

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
    /** Null for named topics; compiled once, for {@link #contains} runs per dead letter. */
    private final Pattern pattern;
    /** Whose topics a pattern leaves out; null when it leaves out none. */
    private final DescriptorTopics ownOutput;

    private InputTopics(List<String> names, Pattern pattern, DescriptorTopics ownOutput) {
        this.names = List.copyOf(names);
        this.pattern = pattern;
        this.ownOutput = ownOutput;
    }

    /** The topics {@code names}. */
    public static InputTopics named(List<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no input topic named");
        }
        return new InputTopics(names, null, null);
    }

    /** Every topic whose whole name matches {@code regex}, now and later. */
    public static InputTopics matching(String regex) {
        return new InputTopics(List.of(), Pattern.compile(regex), null);
    }

    /**
     * These topics without the job's own descriptor topics, where each input topic has its own
     * ({@code {topic}.descriptors}): a pattern such as {@code robots\..*} would otherwise take in
     * {@code robots.cam.descriptors} as soon as the job creates it, and ingest its own output.
     * Named topics are checked when the job is configured instead.
     */
    InputTopics excludingOutputOf(DescriptorTopics descriptorTopics) {
        if (pattern == null || !descriptorTopics.perInputTopic()) {
            return this;
        }
        return new InputTopics(names, pattern, descriptorTopics);
    }

    /**
     * The input topics of {@code config}: {@code kafka.input-topic} (one name, or several separated by
     * commas) or {@code kafka.input-topic-pattern}, without the job's own descriptor topics ({@link
     * #excludingOutputOf}); empty when neither is set.
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
                InputTopics matching = matching(regex.get());
                return Optional.of(config.getOptional(BlobKafkaOptions.DESCRIPTOR_TOPIC)
                        .map(DescriptorTopics::of)
                        .map(matching::excludingOutputOf)
                        .orElse(matching));
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

    /**
     * Whether the job reads {@code topic}: it is named, or its whole name matches the pattern and it
     * is not the descriptor topic of a name that does.
     */
    public boolean contains(String topic) {
        if (pattern == null) {
            return names.contains(topic);
        }
        if (!pattern.matcher(topic).matches()) {
            return false;
        }
        return ownOutput == null
                || ownOutput
                        .inputOf(topic)
                        .filter(input -> pattern.matcher(input).matches())
                        .isEmpty();
    }

    /** Subscribes {@code builder} to these topics. */
    public void subscribe(KafkaSourceBuilder<?> builder) {
        if (pattern == null) {
            builder.setTopics(names);
        } else if (ownOutput == null) {
            builder.setTopicPattern(pattern);
        } else {
            builder.setKafkaSubscriber(new Subscriber(this));
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
        return o instanceof InputTopics other
                && names.equals(other.names)
                && Objects.equals(regex(), other.regex())
                && Objects.equals(ownOutput, other.ownOutput);
    }

    @Override
    public int hashCode() {
        return Objects.hash(names, regex(), ownOutput);
    }

    private String regex() {
        return pattern == null ? null : pattern.pattern();
    }

    /** The Kafka source's pattern subscription, without the topics {@link #contains} leaves out. */
    private static final class Subscriber implements KafkaSubscriber {

        private static final long serialVersionUID = 1L;

        private final InputTopics topics;

        private Subscriber(InputTopics topics) {
            this.topics = topics;
        }

        @Override
        public Set<TopicPartition> getSubscribedTopicPartitions(AdminClient admin) {
            List<String> matching = AdminUtils.getTopicsByPattern(admin, topics.pattern).stream()
                    .filter(topics::contains)
                    .toList();
            return new HashSet<>(AdminUtils.getTopicPartitions(admin, matching));
        }
    }
}
