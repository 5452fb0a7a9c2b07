package io.blobingest.kafka.internal;

import java.util.List;
import java.util.Properties;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A bounded {@link KafkaSource} that also ends when restored from a checkpoint. Connector 5.0
 * alone does not, for two reasons.
 *
 * <p>Splits restored from an unbounded run never stop. The Kafka source gives a split its stopping offset when its
 * enumerator creates the split, and
 * keeps that offset in the split's checkpointed state. A bounded job restored from a checkpoint of
 * an unbounded one (the {@code run --resume --bounded} after an unbounded run) therefore gets its
 * splits back without a stopping offset, reads them forever and never ends. This source hands such
 * splits to the reader with the "latest" stopping offset, which the reader resolves to the
 * partition's last stable offset when it receives the split, that is when the job starts.
 *
 * <p>A restored enumerator may never tell the readers that no more splits come, so they never end
 * even once every split is read; {@link RestoredBoundedEnumerator} does.
 *
 * <p>Its readers end their input together, when the last of them has read its splits ({@link
 * JointEndReader} says why a bounded run of the Raw Pack sink needs that).
 */
@Internal
public final class BoundedKafkaSource<T>
        implements Source<T, KafkaPartitionSplit, KafkaSourceEnumState>, ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    private final KafkaSource<T> source;
    private final List<String> topics;
    private final Properties adminProperties;

    /**
     * @param source a bounded Kafka source
     * @param topics the topics {@code source} reads
     * @param adminProperties what an admin client needs to list their partitions
     */
    public BoundedKafkaSource(KafkaSource<T> source, List<String> topics, Properties adminProperties) {
        if (source.getBoundedness() != Boundedness.BOUNDED) {
            throw new IllegalArgumentException("expected a bounded Kafka source, found " + source.getBoundedness());
        }
        this.source = source;
        this.topics = List.copyOf(topics);
        this.adminProperties = adminProperties;
    }

    /** {@code split} as a bounded job must read it: one without a stopping offset stops at the latest offset. */
    @SuppressWarnings("deprecation") // the reader still resolves LATEST_OFFSET, the marker restored splits need
    static KafkaPartitionSplit stoppingAtLatestIfUnbounded(KafkaPartitionSplit split) {
        if (split.getStoppingOffset().isPresent()) {
            return split;
        }
        return new KafkaPartitionSplit(
                split.getTopicPartition(), split.getStartingOffset(), KafkaPartitionSplit.LATEST_OFFSET);
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<T, KafkaPartitionSplit> createReader(SourceReaderContext context) throws Exception {
        return new JointEndReader<>(new Reader<>(source.createReader(context)), context);
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> createEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context) throws Exception {
        return new JointEndEnumerator<>(source.createEnumerator(context), context);
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> restoreEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context, KafkaSourceEnumState checkpoint) throws Exception {
        return new JointEndEnumerator<>(
                new RestoredBoundedEnumerator(
                        source.restoreEnumerator(context, checkpoint), context, checkpoint, topics, adminProperties),
                context);
    }

    @Override
    public SimpleVersionedSerializer<KafkaPartitionSplit> getSplitSerializer() {
        return source.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<KafkaSourceEnumState> getEnumeratorCheckpointSerializer() {
        return source.getEnumeratorCheckpointSerializer();
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return source.getProducedType();
    }

    /** The Kafka reader; every split it is given, restored or assigned, passes {@link #stoppingAtLatestIfUnbounded}. */
    private static final class Reader<T> extends ForwardingSourceReader<T, KafkaPartitionSplit> {

        Reader(SourceReader<T, KafkaPartitionSplit> reader) {
            super(reader);
        }

        @Override
        public void addSplits(List<KafkaPartitionSplit> splits) {
            reader.addSplits(splits.stream()
                    .map(BoundedKafkaSource::stoppingAtLatestIfUnbounded)
                    .toList());
        }
    }
}
