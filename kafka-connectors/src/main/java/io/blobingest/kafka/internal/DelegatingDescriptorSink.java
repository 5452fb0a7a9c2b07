package io.blobingest.kafka.internal;

import io.blobingest.objectlayer.DescriptorRow;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.connector.kafka.sink.TwoPhaseCommittingStatefulSink;

/**
 * The descriptor {@link KafkaSink} behind the same Sink V2 interfaces, everything delegated: its
 * transactions, state and committer are Kafka's own. Subclasses override the part they change (the
 * job: its committer; fault-injecting tests: the part they break).
 */
@Internal
public abstract class DelegatingDescriptorSink extends DelegatingKafkaSink<DescriptorRow> {

    private static final long serialVersionUID = 1L;

    protected DelegatingDescriptorSink(
            TwoPhaseCommittingStatefulSink<DescriptorRow, KafkaWriterState, KafkaCommittable> sink) {
        super(sink);
    }
}
