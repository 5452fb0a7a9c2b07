package io.blobingest.kafka.internal;

import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.util.FlinkRuntimeException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

/**
 * A bounded Kafka source's enumerator restored from a checkpoint, which tells the readers that no
 * more splits will come when the Kafka enumerator itself would not.
 *
 * <p>The restored Kafka enumerator (connector 5.0) discovers partitions once and signals "no more
 * splits" only when that discovery finds a partition it does not know yet; when every partition
 * is already in its restored state it never signals, and the bounded readers wait forever
 * (FLINK-31006, not fixed in 5.0.0). This enumerator lists the topics' partitions once more after
 * the Kafka enumerator's start and, if none is new to the restored state, signals the end to every
 * reader, now and when it registers (after the Kafka enumerator has handed it its pending splits).
 * If a partition is new, the Kafka enumerator assigns it and signals the end itself.
 */
final class RestoredBoundedEnumerator extends ForwardingSplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> {

    private final SplitEnumeratorContext<KafkaPartitionSplit> context;
    private final Set<TopicPartition> restoredPartitions;
    private final List<String> topics;
    private final Properties adminProperties;
    private boolean noMoreSplits;

    RestoredBoundedEnumerator(
            SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> enumerator,
            SplitEnumeratorContext<KafkaPartitionSplit> context,
            KafkaSourceEnumState restored,
            List<String> topics,
            Properties adminProperties) {
        super(enumerator);
        this.context = context;
        this.restoredPartitions = Stream.concat(
                        restored.assignedSplits().stream(), restored.unassignedSplits().stream())
                .map(KafkaPartitionSplit::getTopicPartition)
                .collect(Collectors.toSet());
        this.topics = List.copyOf(topics);
        this.adminProperties = adminProperties;
    }

    @Override
    public void start() {
        enumerator.start();
        context.callAsync(this::currentPartitions, this::signalNoMoreSplitsUnlessNewPartitions);
    }

    private Set<TopicPartition> currentPartitions() throws ExecutionException, InterruptedException {
        try (Admin admin = Admin.create(adminProperties)) {
            Set<TopicPartition> partitions = new HashSet<>();
            for (TopicDescription topic :
                    admin.describeTopics(topics).allTopicNames().get().values()) {
                topic.partitions().forEach(p -> partitions.add(new TopicPartition(topic.name(), p.partition())));
            }
            return partitions;
        }
    }

    private void signalNoMoreSplitsUnlessNewPartitions(Set<TopicPartition> partitions, Throwable error) {
        if (error != null) {
            throw new FlinkRuntimeException(
                    "cannot list the partitions of " + topics + " to end the bounded input restored from a checkpoint",
                    error);
        }
        if (restoredPartitions.containsAll(partitions)) {
            noMoreSplits = true;
            context.registeredReaders().keySet().forEach(context::signalNoMoreSplits);
        }
    }

    @Override
    public void addReader(int subtaskId) {
        enumerator.addReader(subtaskId);
        if (noMoreSplits) {
            context.signalNoMoreSplits(subtaskId);
        }
    }
}
