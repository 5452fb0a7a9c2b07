package io.blobingest.kafka.internal;

import java.io.IOException;
import java.util.Collection;
import org.apache.flink.annotation.Internal;
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
 * An exactly-once {@link KafkaSink} behind the same Sink V2 interfaces, everything delegated: its
 * transactions, state and committer are Kafka's own. Subclasses override the part they change (the
 * job: a committer; fault-injecting tests: the part they break).
 *
 * @param <T> what the sink writes (descriptor rows, dead letters)
 */
@Internal
public abstract class DelegatingKafkaSink<T>
        implements TwoPhaseCommittingStatefulSink<T, KafkaWriterState, KafkaCommittable>,
                SupportsPostCommitTopology<KafkaCommittable> {

    private static final long serialVersionUID = 1L;

    /** The Kafka sink, or another delegating sink around it. */
    protected final TwoPhaseCommittingStatefulSink<T, KafkaWriterState, KafkaCommittable> sink;

    protected DelegatingKafkaSink(TwoPhaseCommittingStatefulSink<T, KafkaWriterState, KafkaCommittable> sink) {
        this.sink = sink;
    }

    @Override
    public PrecommittingStatefulSinkWriter<T, KafkaWriterState, KafkaCommittable> createWriter(
            WriterInitContext context) throws IOException {
        return sink.createWriter(context);
    }

    @Override
    public PrecommittingStatefulSinkWriter<T, KafkaWriterState, KafkaCommittable> restoreWriter(
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

    /** The Kafka sink co-locates its committer with its writer here. */
    @Override
    @SuppressWarnings("unchecked")
    public void addPostCommitTopology(DataStream<CommittableMessage<KafkaCommittable>> committables) {
        if (sink instanceof SupportsPostCommitTopology<?> postCommit) {
            ((SupportsPostCommitTopology<KafkaCommittable>) postCommit).addPostCommitTopology(committables);
        }
    }
}
