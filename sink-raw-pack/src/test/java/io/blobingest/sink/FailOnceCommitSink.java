package io.blobingest.sink;

import io.blobingest.placement.PlacedBlob;
import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.sink.internal.committer.BlobSetCommitter;
import io.blobingest.sink.internal.state.WriterState;
import java.io.IOException;
import java.util.Collection;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * A {@link RawPackSink} whose committer fails once, on its first commit call after {@link
 * Failures.Point#IN_COMMITTER} is armed: by default it throws before committing; a {@link Strike}
 * may do something else in its place (stop the storage server around the real commit). Everything
 * else is the real sink, its pre-write (end-of-input drain) and post-commit (descriptor emission)
 * topologies included.
 */
public final class FailOnceCommitSink
        implements Sink<PlacedBlob>,
                SupportsWriterState<PlacedBlob, WriterState>,
                SupportsCommitter<BlobSetCommittable>,
                SupportsPostCommitTopology<BlobSetCommittable>,
                SupportsPreWriteTopology<PlacedBlob> {

    private static final long serialVersionUID = 1L;

    private final RawPackSink sink;
    private final String runId;
    private final Strike strike;

    public FailOnceCommitSink(RawPackSink sink, String runId) {
        this(sink, runId, (committer, requests) -> {
            throw Failures.injected(
                    Failures.Point.IN_COMMITTER,
                    "before committing "
                            + requests.stream()
                                    .map(r -> r.getCommittable().blobSet())
                                    .toList());
        });
    }

    public FailOnceCommitSink(RawPackSink sink, String runId, Strike strike) {
        this.sink = sink;
        this.runId = runId;
        this.strike = strike;
    }

    /** What the one failing commit call does instead of committing; it may commit through {@code committer}. */
    @FunctionalInterface
    public interface Strike extends java.io.Serializable {
        void commit(
                Committer<BlobSetCommittable> committer,
                Collection<Committer.CommitRequest<BlobSetCommittable>> requests)
                throws IOException, InterruptedException;
    }

    @Override
    public SinkWriter<PlacedBlob> createWriter(WriterInitContext context) throws IOException {
        return sink.createWriter(context);
    }

    @Override
    public StatefulSinkWriter<PlacedBlob, WriterState> restoreWriter(
            WriterInitContext context, Collection<WriterState> recoveredState) throws IOException {
        return sink.restoreWriter(context, recoveredState);
    }

    @Override
    public SimpleVersionedSerializer<WriterState> getWriterStateSerializer() {
        return sink.getWriterStateSerializer();
    }

    @Override
    public Committer<BlobSetCommittable> createCommitter(CommitterInitContext context) {
        BlobSetCommitter committer = sink.createCommitter(context);
        return new Committer<>() {
            @Override
            public void commit(Collection<CommitRequest<BlobSetCommittable>> requests)
                    throws IOException, InterruptedException {
                // The first commit call: a fast size-or-time run may make only one or two, and a
                // failure there still restores from the checkpoint that has just completed.
                if (Failures.fireOnce(runId, Failures.Point.IN_COMMITTER)) {
                    strike.commit(committer, requests);
                    return;
                }
                committer.commit(requests);
            }

            @Override
            public void close() {
                committer.close();
            }
        };
    }

    @Override
    public SimpleVersionedSerializer<BlobSetCommittable> getCommittableSerializer() {
        return sink.getCommittableSerializer();
    }

    @Override
    public DataStream<PlacedBlob> addPreWriteTopology(DataStream<PlacedBlob> input) {
        return sink.addPreWriteTopology(input);
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<BlobSetCommittable>> committables) {
        sink.addPostCommitTopology(committables);
    }
}
