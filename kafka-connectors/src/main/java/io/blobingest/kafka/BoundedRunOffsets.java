package io.blobingest.kafka;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a bounded run stops, and the consumer group's offsets once it has. The Kafka source commits
 * the group's offsets asynchronously after each checkpoint, and a bounded run can end before the
 * commit of its last checkpoints lands; the next start without restored state (the same command
 * again, {@code --fresh}) begins at the group's offsets and would read those inputs again. So the
 * launcher fixes the stopping offsets before it builds the job ({@link #fix}: the input's last
 * stable offsets, read {@code read_committed}, which the source then stops at instead of resolving
 * "latest" itself), and once the job has finished moves the group's offsets forward to them
 * ({@link #advanceGroup}): every input below them was delivered, exactly once, by that run.
 */
@Internal
public final class BoundedRunOffsets {

    /** The stopping offsets a launcher fixed, {@code <topic>:<partition>:<offset>,...}; set by {@link #fix}. */
    public static final ConfigOption<String> STOPPING_OFFSETS = ConfigOptions.key(
                    "$internal.blob-ingest.kafka.stopping-offsets")
            .stringType()
            .noDefaultValue()
            .withDescription("Offsets of the input partitions where a bounded run stops (launcher-internal).");

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private BoundedRunOffsets() {}

    /**
     * Fixes where the bounded run configured by {@code config} stops: the last stable offsets now of
     * every partition of its input topics (with a pattern, of the topics that match now).
     *
     * @return the stopping offsets, by partition
     */
    public static Map<TopicPartition, Long> fix(Configuration config) throws InterruptedException {
        InputTopics inputs = InputTopics.fromConfig(config)
                .orElseThrow(() -> new IllegalStateException("a bounded run without input topics"));
        try (Admin admin = Admin.create(BlobKafkaConnectors.fromConfig(config).adminProperties())) {
            List<String> topics = inputs.resolve(admin, TIMEOUT.toMillis());
            if (topics.isEmpty()) {
                throw new IllegalConfigurationException("no topic matches the input, " + inputs + ": nothing to read");
            }
            Set<TopicPartition> partitions = admin
                    .describeTopics(topics)
                    .allTopicNames()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .values()
                    .stream()
                    .flatMap(topic ->
                            topic.partitions().stream().map(p -> new TopicPartition(topic.name(), p.partition())))
                    .collect(Collectors.toSet());
            Map<TopicPartition, OffsetSpec> latest =
                    partitions.stream().collect(Collectors.toMap(Function.identity(), p -> OffsetSpec.latest()));
            Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
            admin
                    .listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                    .all()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .entrySet()
                    .stream()
                    .sorted(Map.Entry.comparingByKey(BY_TOPIC_AND_PARTITION))
                    .forEach(e -> offsets.put(e.getKey(), e.getValue().offset()));
            config.set(STOPPING_OFFSETS, encode(offsets));
            return offsets;
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the end offsets of the input " + inputs + ": " + e, e);
        }
    }

    /** The stopping offsets {@link #fix} set in {@code config}, by partition; empty when it did not. */
    public static Map<TopicPartition, Long> fixed(ReadableConfig config) {
        return config.getOptional(STOPPING_OFFSETS)
                .map(BoundedRunOffsets::decode)
                .orElse(Map.of());
    }

    /**
     * Moves the group's committed offsets forward to the fixed stopping offsets, where they are
     * behind (never back: a commit of the source may have landed further).
     *
     * @return the partitions moved, with their new offsets
     */
    public static Map<TopicPartition, Long> advanceGroup(ReadableConfig config) throws InterruptedException {
        Map<TopicPartition, Long> stops = fixed(config);
        if (stops.isEmpty()) {
            return Map.of();
        }
        String group = config.get(BlobKafkaOptions.GROUP_ID);
        try (Admin admin = Admin.create(BlobKafkaConnectors.fromConfig(config).adminProperties())) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, OffsetAndMetadata> behind = new LinkedHashMap<>();
            Map<TopicPartition, Long> moved = new LinkedHashMap<>();
            stops.forEach((partition, stop) -> {
                OffsetAndMetadata now = committed.get(partition);
                if (now == null || now.offset() < stop) {
                    behind.put(partition, new OffsetAndMetadata(stop));
                    moved.put(partition, stop);
                }
            });
            if (!behind.isEmpty()) {
                admin.alterConsumerGroupOffsets(group, behind).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
            return moved;
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "cannot move consumer group " + group + " to where the run stopped: " + e, e);
        }
    }

    static String encode(Map<TopicPartition, Long> offsets) {
        return offsets.entrySet().stream()
                .map(e -> e.getKey().topic() + ":" + e.getKey().partition() + ":" + e.getValue())
                .collect(Collectors.joining(","));
    }

    static Map<TopicPartition, Long> decode(String text) {
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        if (text.isBlank()) {
            return offsets;
        }
        for (String entry : text.split(",")) {
            // A topic name has no ':'.
            String[] parts = entry.split(":");
            if (parts.length != 3) {
                throw new IllegalArgumentException(
                        STOPPING_OFFSETS.key() + ": expected <topic>:<partition>:<offset>, found '" + entry + "'");
            }
            offsets.put(
                    new TopicPartition(parts[0].trim(), Integer.parseInt(parts[1].trim())),
                    Long.parseLong(parts[2].trim()));
        }
        return offsets;
    }

    private static final Comparator<TopicPartition> BY_TOPIC_AND_PARTITION =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);
}
