package io.blobingest.kafka;

import io.blobingest.kafka.internal.DelegatingDescriptorSink;
import io.blobingest.kafka.internal.RestoredTransactionCommitter;
import io.blobingest.objectlayer.DescriptorRow;
import java.io.IOException;
import java.util.Properties;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;

/**
 * The descriptor topic's exactly-once Kafka sink as the job uses it: writer, state and transactions
 * are the Kafka sink's own; its committer does not commit again, nor report as data loss, the
 * restored transactions that ended before a failure ({@link RestoredTransactionCommitter}).
 */
@PublicEvolving
public final class DescriptorKafkaSink extends DelegatingDescriptorSink {

    private static final long serialVersionUID = 1L;

    private final Properties adminProperties;
    private final String transactionalIdPrefix;

    /**
     * @param sink the Kafka sink writing the descriptor topic
     * @param adminProperties an admin client's properties for its cluster
     * @param transactionalIdPrefix its transactional id prefix
     */
    public DescriptorKafkaSink(
            KafkaSink<DescriptorRow> sink, Properties adminProperties, String transactionalIdPrefix) {
        super(sink);
        this.adminProperties = adminProperties;
        this.transactionalIdPrefix = transactionalIdPrefix;
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(CommitterInitContext context) throws IOException {
        return new RestoredTransactionCommitter(
                sink.createCommitter(context),
                adminProperties,
                transactionalIdPrefix,
                context.getRestoredCheckpointId());
    }
}
