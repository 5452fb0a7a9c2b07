package io.blobingest.sink;

import io.blobingest.objectlayer.DescriptorRow;
import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * A further output of committed descriptors beside the descriptor sink, such as a Lance dataset:
 * given the stream of committed rows (every row's blob set is committed and durable), adds its own
 * operators behind it. {@link RawPackSink} attaches it when building its post-commit topology; it
 * must itself be exactly once (commit with its own checkpoints) for the end-to-end guarantee.
 *
 * <p>It sees each committed blob set's rows once per handing-over by the Raw Pack committer (again
 * only after a restore to a checkpoint that had not yet delivered them), never the rows the sink
 * sends to the descriptor sink a second time because that sink lost a transaction. A job finds its
 * outputs through {@link DescriptorOutputFactory}.
 */
@FunctionalInterface
@PublicEvolving
public interface DescriptorOutput extends Serializable {

    /**
     * Adds this output's operators behind {@code committedRows}, which runs at the sink's
     * parallelism. Keep the first operator at that parallelism with a forward edge, so that it is
     * chained to the emitter and holds every row it was given before the end of input passes (see
     * {@code DescriptorDrainOperator}). Add operators only, no nested {@code Sink}: Flink 2.2
     * expands at most one nested sink in a post-commit topology, and that is the descriptor sink.
     *
     * <p>{@code earlierRows} are rows of sets committed before this job under other bases (a
     * backfill's passed-through rows, {@link RawPackSinkBuilder#addEarlierCommittedRows}), each
     * arriving once, at their own parallelism; output them too, in the same exactly-once output
     * (one transaction per checkpoint for all of them), resolving their sidecars against their base.
     */
    void attach(DataStream<DescriptorRow> committedRows, List<EarlierCommittedRows> earlierRows);
}
