package io.blobingest.sink;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.sink.internal.committer.BlobSetCommitter;
import io.blobingest.sink.internal.delivery.CommittedDescriptorEmitter;
import io.blobingest.sink.internal.delivery.DescriptorDrainOperator;
import io.blobingest.sink.internal.delivery.DrainCoordinator;
import io.blobingest.sink.internal.sharing.ContentRouting;
import io.blobingest.sink.internal.state.BlobSetCommittableSerializer;
import io.blobingest.sink.internal.state.BlobSetWriterStateSerializer;
import io.blobingest.sink.internal.state.WriterState;
import io.blobingest.sink.internal.state.WriterStateSerializer;
import io.blobingest.sink.internal.writer.RawPackSinkWriter;
import io.blobingest.sink.internal.writer.SinkSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Writes {@link PlacedBlob}s, exactly once, as Lance Blob v2 objects (Raw Packs, Dedicated
 * sidecars) plus one Arrow descriptor manifest per blob set, and then emits every committed
 * descriptor to a downstream sink. All files go through Flink's {@code FileSystem} and {@code
 * RecoverableWriter}, so any Flink file system with a recoverable writer works (local, S3).
 *
 * <pre>
 *              barrier N: phase 1                      notifyCheckpointComplete(N): phase 2
 *                   |                                             |
 * PlacedBlob -&gt; [ Writer ] --committables-&gt; [ Committer ] --sets-&gt; [ Emitter ] --rows-&gt; [ descriptor sink ]
 *                one open blob set  (kept in the  publishes sidecars,   reads the committed  exactly-once; commits
 *                per subtask         committer's   then the manifest     manifest, emits      at its own next
 *                                    state of N)                         every row            checkpoint (N+1)
 *                   |                                             |
 * storage:  &lt;set&gt;/.&lt;id&gt;.blob.inprogress.*      ------------&gt;  &lt;set&gt;/&lt;id&gt;.blob
 *           _descriptors/.&lt;set&gt;.arrow.inprogress.* -------&gt;  _descriptors/&lt;set&gt;.arrow  (published last)
 * </pre>
 *
 * <ol>
 *   <li>The writer places each blob: Inline and External rows carry everything; Packed blobs are
 *       appended to the open Raw Pack (a new pack once the next entry would pass the target
 *       size); Dedicated blobs get a sidecar of their own. Nothing is visible yet.
 *   <li>At a checkpoint ({@link RollPolicy#ON_CHECKPOINT}) or once the set is full or old
 *       ({@link RollPolicy#SIZE_OR_TIME}) the writer finishes the pack, writes the manifest,
 *       closes every file for commit and hands one committable per blob set to Flink, which keeps
 *       it in the checkpoint.
 *   <li>When the checkpoint completes, the committer publishes the sidecars and then the manifest
 *       (idempotently; again after a restore), and Flink passes the committed sets on.
 *   <li>The emitter reads each committed manifest and sends its rows to the descriptor sink, which
 *       makes them visible with its own next checkpoint. No descriptor is emitted before the
 *       bytes it names are committed.
 * </ol>
 *
 * Failure handling and assumptions are in {@code docs/exactly-once.md}. When a descriptor sink is
 * set, give this sink a uid ({@code sinkTo(sink).uid(...)}): the emitter and descriptor sink get
 * uids derived from it, so that the descriptor sink's state survives topology changes.
 */
@PublicEvolving
public final class RawPackSink
        implements Sink<PlacedBlob>,
                SupportsWriterState<PlacedBlob, WriterState>,
                SupportsCommitter<BlobSetCommittable>,
                SupportsPostCommitTopology<BlobSetCommittable>,
                SupportsPreWriteTopology<PlacedBlob> {

    private static final long serialVersionUID = 1L;

    /**
     * With exact sharing and a descriptor sink or output: the name of the job accumulator holding
     * the objects the writers' sharing indexes remember, a {@code Long}, each subtask's index as of
     * the last blob set it committed since the task (re)started, summed over the subtasks.
     */
    public static final String SHARING_INDEX_ENTRIES_ACCUMULATOR = "sharing.index-entries";

    private final SinkSettings settings;
    private final Sink<DescriptorRow> descriptorSink;
    private final DescriptorDeliveryCheck deliveryCheck;
    private final List<DescriptorOutput> descriptorOutputs;
    /**
     * Read only while the job graph is built ({@link #addPostCommitTopology}); a stream is not
     * serializable, and the sink is serialized into the job graph after that.
     */
    private final transient List<EarlierCommittedRows> earlierRows;
    /** Where the drains in front of the routing and the emitters behind it meet ({@link DrainCoordinator}). */
    private final String drainSignalKey = "blob-ingest-drain-" + UUID.randomUUID();
    /** Whether {@link #routeToWriters} routed the stream this sink is given; read while the job graph is built. */
    private transient boolean routedUpstream;

    RawPackSink(
            SinkSettings settings,
            Sink<DescriptorRow> descriptorSink,
            DescriptorDeliveryCheck deliveryCheck,
            List<DescriptorOutput> descriptorOutputs,
            List<EarlierCommittedRows> earlierRows) {
        this.settings = settings;
        this.descriptorSink = descriptorSink;
        this.deliveryCheck = deliveryCheck;
        this.descriptorOutputs = List.copyOf(descriptorOutputs);
        this.earlierRows = List.copyOf(earlierRows);
    }

    public static RawPackSinkBuilder builder() {
        return new RawPackSinkBuilder();
    }

    @Override
    public RawPackSinkWriter createWriter(WriterInitContext context) throws IOException {
        return restoreWriter(context, List.of());
    }

    @Override
    public RawPackSinkWriter restoreWriter(WriterInitContext context, Collection<WriterState> recoveredState)
            throws IOException {
        return new RawPackSinkWriter(
                settings,
                recoverableWriter(),
                context.getTaskInfo().getIndexOfThisSubtask(),
                context.getProcessingTimeService(),
                context.metricGroup(),
                recoveredState);
    }

    @Override
    public SimpleVersionedSerializer<WriterState> getWriterStateSerializer() {
        RecoverableWriter writer = recoverableWriterUnchecked();
        return new WriterStateSerializer(new BlobSetWriterStateSerializer(
                writer.getCommitRecoverableSerializer(), writer.getResumeRecoverableSerializer()));
    }

    @Override
    public BlobSetCommitter createCommitter(CommitterInitContext context) {
        return new BlobSetCommitter(context.metricGroup(), settings.packTargetSize());
    }

    @Override
    public SimpleVersionedSerializer<BlobSetCommittable> getCommittableSerializer() {
        return new BlobSetCommittableSerializer(recoverableWriterUnchecked().getCommitRecoverableSerializer());
    }

    /**
     * With {@link ExactSharing#WITHIN_JOB}, routes blobs to the writer subtasks by their content
     * ({@link ContentRouting}): across a network hop, so that identical blobs from any input meet
     * in one writer. Operators placed between this stream and {@code sinkTo} run in the writers'
     * task, chained in front of the writer: where an exception of the writer can be caught per
     * record (a failed copy of an External object's bytes, {@link
     * io.blobingest.placement.ExternalCopyException}). The sink then routes nothing itself. Without
     * {@code within-job} sharing, returns {@code placed}: the writers take their input where it is.
     *
     * <p>With a descriptor sink or output and checkpointing, the end of input is held in front of
     * the hop until every writer's last blob set is committed and its descriptors are delivered
     * ({@link DescriptorDrainOperator}).
     */
    public DataStream<PlacedBlob> routeToWriters(DataStream<PlacedBlob> placed) {
        if (settings.exactSharing() != ExactSharing.WITHIN_JOB) {
            return placed;
        }
        routedUpstream = true;
        return route(placed);
    }

    /**
     * With a descriptor sink or output and checkpointing, the end of input is held back until the
     * last blob set's descriptors are delivered ({@link DescriptorDrainOperator}). With {@link
     * ExactSharing#WITHIN_JOB}, blobs are first routed to writers by their content ({@link
     * #routeToWriters}), unless the stream was routed so already.
     */
    @Override
    public DataStream<PlacedBlob> addPreWriteTopology(DataStream<PlacedBlob> placed) {
        if (settings.exactSharing() == ExactSharing.WITHIN_JOB) {
            return routedUpstream ? placed : route(placed);
        }
        return holdsEndOfInput(placed)
                ? drain(placed, DescriptorDrainOperator.inWriterTask(), "", "descriptor-drain")
                : placed;
    }

    private DataStream<PlacedBlob> route(DataStream<PlacedBlob> placed) {
        ContentRouting routing = new ContentRouting();
        if (!holdsEndOfInput(placed)) {
            return placed.partitionCustom(routing, routing);
        }
        // The set's commit, then, with a delivery check, the commit and check of its descriptors: at
        // least; the emitters behind the hop release the drain when they know their last descriptors committed.
        int checkpoints = deliveryCheck == null ? 1 : 2;
        return drain(
                        placed,
                        DescriptorDrainOperator.beforeRouting(checkpoints, drainSignalKey),
                        " (before routing)",
                        "descriptor-drain-before-routing")
                .partitionCustom(routing, routing);
    }

    private boolean holdsEndOfInput(DataStream<PlacedBlob> placed) {
        return emitsDescriptors()
                && placed.getExecutionEnvironment().getCheckpointConfig().isCheckpointingEnabled();
    }

    private static DataStream<PlacedBlob> drain(
            DataStream<PlacedBlob> input, DescriptorDrainOperator.Factory<PlacedBlob> drain, String where, String uid) {
        return input.transform("Drain descriptors at end of input" + where, input.getType(), drain)
                .uid(uid);
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<BlobSetCommittable>> committed) {
        if (!emitsDescriptors()) {
            return;
        }
        CommittedDescriptorEmitter emitter =
                new CommittedDescriptorEmitter(settings, deliveryCheck, !descriptorOutputs.isEmpty());
        TypeInformation<DescriptorRow> rowType = BlobTypes.DESCRIPTOR_ROW;
        String name = "Emit committed descriptors";
        SingleOutputStreamOperator<DescriptorRow> rows = (settings.exactSharing() == ExactSharing.WITHIN_JOB
                        ? committed.transform(
                                name,
                                rowType,
                                new CommittedDescriptorEmitter.CoordinatedFactory(emitter, drainSignalKey))
                        : committed.transform(name, rowType, emitter))
                .uid("descriptor-emitter");
        // The further outputs commit on their own: they get each set once, not the emitter's
        // re-emissions for an aborted descriptor transaction.
        DataStream<DescriptorRow> once = rows.getSideOutput(CommittedDescriptorEmitter.ONCE);
        for (DescriptorOutput output : descriptorOutputs) {
            output.attach(once, earlierRows);
        }
        // Last: Flink 2.2 expands a sink nested in a post-commit topology while iterating over the
        // outer expansion's transformations, and fails with a ConcurrentModificationException
        // unless the nested sink is the last of them (SinkTransformationTranslator.SinkExpander).
        if (descriptorSink != null) {
            rows.sinkTo(descriptorSink).name("Descriptor sink").uid("descriptor-sink");
        }
    }

    private boolean emitsDescriptors() {
        return descriptorSink != null || !descriptorOutputs.isEmpty();
    }

    private RecoverableWriter recoverableWriter() throws IOException {
        return FileSystem.get(settings.base().toUri()).createRecoverableWriter();
    }

    private RecoverableWriter recoverableWriterUnchecked() {
        try {
            return recoverableWriter();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a recoverable writer for " + settings.basePath(), e);
        }
    }
}
