package io.blobingest.job;

import io.blobingest.objectlayer.DescriptorRow;
import java.io.IOException;
import java.util.Collection;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.connector.kafka.sink.TwoPhaseCommittingStatefulSink;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The job's real descriptor {@link KafkaSink} behind the same Sink V2 interfaces, everything
 * delegated: its transactions, state and committer are Kafka's own. Fault-injecting test sinks
 * override the part they break.
 */
abstract class DelegatingDescriptorSink
        implements TwoPhaseCommittingStatefulSink<DescriptorRow, KafkaWriterState, KafkaCommittable>,
                SupportsPostCommitTopology<KafkaCommittable> {

    private static final long serialVersionUID = 1L;

    final KafkaSink<DescriptorRow> sink;

    DelegatingDescriptorSink(KafkaSink<DescriptorRow> sink) {
        this.sink = sink;
    }

    @Override
    public PrecommittingStatefulSinkWriter<DescriptorRow, KafkaWriterState, KafkaCommittable> createWriter(
            WriterInitContext context) throws IOException {
        return sink.createWriter(context);
    }

    @Override
    public PrecommittingStatefulSinkWriter<DescriptorRow, KafkaWriterState, KafkaCommittable> restoreWriter(
            WriterInitContext context, Collection<KafkaWriterState> recoveredState) throws IOException {
        return sink.restoreWriter(context, recoveredState);
    }

    @Override
    public SimpleVersionedSerializer<KafkaWriterState> getWriterStateSerializer() {
        return sink.getWriterStateSerializer();
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(CommitterInitContext context) throws IOException {
        return sink.createCommitter(context);
    }

    @Override
    public SimpleVersionedSerializer<KafkaCommittable> getCommittableSerializer() {
        return sink.getCommittableSerializer();
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<KafkaCommittable>> committables) {
        sink.addPostCommitTopology(committables);
    }
}
