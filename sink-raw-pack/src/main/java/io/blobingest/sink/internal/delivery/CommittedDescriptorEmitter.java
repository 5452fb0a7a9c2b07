package io.blobingest.sink.internal.delivery;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.BlobTypes;
import io.blobingest.sink.DescriptorDeliveryCheck;
import io.blobingest.sink.ExactSharing;
import io.blobingest.sink.RawPackSink;
import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.sink.internal.sharing.ContentRouting;
import io.blobingest.sink.internal.state.PendingDeliverySerializer;
import io.blobingest.sink.internal.writer.SinkSettings;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import java.io.IOException;
import java.util.function.Predicate;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEventGateway;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.CoordinatedOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The post-commit step: for each blob set the committer has published, reads its committed
 * manifest and emits every row, Inline and External ones included, to the descriptor sink. A row
 * is never emitted before the bytes it names are committed.
 *
 * <p>Exactly-once delivery comes from Flink's committer operator, which emits a checkpoint's
 * committables only after committing them on {@code notifyCheckpointComplete} and, after a
 * restore, re-commits and re-emits those still in its state; the descriptor sink must be
 * transactional so that rows emitted before a failure and not yet in one of its own completed
 * checkpoints are discarded (see {@code docs/exactly-once.md}).
 *
 * <p>That leaves one loss: the committer's state forgets a set once its rows are emitted, so if
 * the descriptor sink's transaction holding them is aborted after all (Kafka: the broker's
 * transaction timeout, a fencing producer), nothing would send them again, and Kafka's committer
 * only logs it. With a {@link DescriptorDeliveryCheck}, this operator therefore keeps, in its own
 * state, the names of the sets it emitted per epoch (the rows between two checkpoints, one
 * descriptor transaction), and on each completed checkpoint, and on restore, asks the check what
 * became of every epoch that checkpoint closes: committed ones are forgotten, aborted ones have
 * their sets read from their manifests and emitted again (into the current epoch, checked in turn),
 * undecided ones are asked about again later ({@link DescriptorDeliveries}). A check that cannot
 * answer fails the job; the pending epochs stay in the last checkpoint's state for the next attempt.
 *
 * <p>Flink 2.2 emits the committables of a job's final checkpoint (end of bounded input, or stop
 * with {@code --drain}) after this operator's input has ended (FLINK-38614), when the descriptor
 * sink can no longer take records. {@link DescriptorDrainOperator} prevents that by committing
 * and delivering everything before the end of input passes; should a set still arrive after it,
 * it is logged as an error and counted in {@code blobSetsNotDelivered}, never dropped silently.
 * Behind {@link ContentRouting}'s network hop, where this operator cannot wait for checkpoints at
 * its end of input, it tells the drains' {@link DrainCoordinator} instead how far it is settled:
 * through which checkpoint the committer has handed over the committed sets (Flink's committer
 * passes on a {@link CommittableSummary} per checkpoint and writer, empty ones too), whenever every
 * row it sent is known to be committed.
 *
 * <p>Further descriptor outputs (a Lance dataset) commit with their own checkpoints and do not
 * lose a committed epoch with the descriptor sink: they read {@link #ONCE}, where each committed
 * set's rows are emitted when it first arrives from the committer and not again when an aborted
 * descriptor transaction makes this operator send them to the descriptor sink a second time.
 *
 * <p>With exact sharing, this operator also keeps the job accumulator {@link
 * RawPackSink#SHARING_INDEX_ENTRIES_ACCUMULATOR}: a writer cannot register accumulators, but each
 * committed set carries the size of its writer's sharing index when it was sealed, and this
 * operator runs once per writer subtask. Its value here is that of the latest set
 * committed (an index never shrinks while its task runs), summed over the subtasks ({@link
 * SumOfLatestValues}).
 */
@Internal
public final class CommittedDescriptorEmitter
        extends DeliveryCheckedEmitter<CommittableMessage<BlobSetCommittable>, EmittedBlobSet> {

    private static final long serialVersionUID = 2L;

    private static final Logger LOG = LoggerFactory.getLogger(CommittedDescriptorEmitter.class);

    /** The operator list state of the epochs not yet known to be delivered. */
    private static final String PENDING_DELIVERIES = "pending-descriptor-deliveries";

    /**
     * The rows of each committed set as the committer hands it over, never the re-emissions of an
     * aborted descriptor epoch; filled only when built with {@code emitOnce}.
     */
    public static final OutputTag<DescriptorRow> ONCE =
            new OutputTag<>("committed-descriptors-once", BlobTypes.DESCRIPTOR_ROW);

    private final boolean emitOnce;
    private final boolean exactSharing;
    /** Whether the writers read their input from the network ({@link ContentRouting}). */
    private final boolean routedByContent;

    private transient StreamRecord<DescriptorRow> reuse;
    private transient Counter rowsEmitted;
    private transient Counter blobSetsEmitted;
    private transient Counter blobSetsReEmitted;
    private transient Counter blobSetsNotDelivered;
    private transient boolean endOfInput;
    /** Null when exact sharing is off. */
    private transient SumOfLatestValues sharingIndexEntries;
    /** Where to report how far this subtask is settled; null: no drain waits for it. */
    private transient OperatorEventGateway drainCoordinator;
    /** The latest checkpoint whose committed sets the committer has handed over in this attempt. */
    private transient long committedThrough = -1;
    /** The checkpoint of the last summary, and how many of its committables are still to come. */
    private transient long summarized = -1;

    private transient int committablesToCome;

    private transient long reportedThrough = -1;

    /** @param emitOnce whether to fill {@link #ONCE} as well (there are further descriptor outputs) */
    public CommittedDescriptorEmitter(SinkSettings settings, DescriptorDeliveryCheck deliveryCheck, boolean emitOnce) {
        super(deliveryCheck, PENDING_DELIVERIES, settings.basePath(), settings.allowOlderRestore(), "blob sets");
        this.emitOnce = emitOnce;
        this.exactSharing = settings.exactSharing() != ExactSharing.OFF;
        this.routedByContent = settings.exactSharing() == ExactSharing.WITHIN_JOB;
    }

    /**
     * Not behind {@link ContentRouting}: the source-side {@link DescriptorDrainOperator} held the
     * end of input until the last descriptors were committed and checked, and only an aborted
     * transaction leaves rows here to wait for, which fails the task instead.
     */
    @Override
    boolean checkpointsReachTaskAfterEndOfInput() {
        return !routedByContent;
    }

    @Override
    PendingDeliverySerializer.UnitCodec<EmittedBlobSet> unitCodec() {
        return EmittedBlobSet.CODEC;
    }

    @Override
    public void resend(EmittedBlobSet set) throws IOException {
        emit(set, false);
        blobSetsReEmitted.inc();
    }

    @Override
    public void readRows(EmittedBlobSet set, Predicate<DescriptorRow> more) throws IOException {
        try (DescriptorManifestReader manifest = DescriptorManifestReader.open(set.manifestPath())) {
            for (DescriptorRow row = manifest.nextRow(); row != null && more.test(row); ) {
                row = manifest.nextRow();
            }
        }
    }

    @Override
    public void open() throws Exception {
        reuse = new StreamRecord<>(null);
        rowsEmitted = getMetricGroup().counter("descriptorRowsEmitted");
        blobSetsEmitted = getMetricGroup().counter("blobSetsEmitted");
        blobSetsReEmitted = getMetricGroup().counter("blobSetsReEmitted");
        blobSetsNotDelivered = getMetricGroup().counter("blobSetsNotDelivered");
        if (exactSharing) {
            sharingIndexEntries = new SumOfLatestValues();
            getRuntimeContext().addAccumulator(RawPackSink.SHARING_INDEX_ENTRIES_ACCUMULATOR, sharingIndexEntries);
        }
        super.open();
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<BlobSetCommittable>> element) throws IOException {
        if (element.getValue() instanceof CommittableSummary<BlobSetCommittable> summary) {
            // The committer hands over a checkpoint's summary first, then its committables.
            summarized = summary.getCheckpointId();
            committablesToCome = summary.getNumberOfCommittables();
            handedOver();
            return;
        }
        if (!(element.getValue() instanceof CommittableWithLineage<BlobSetCommittable> committed)) {
            return;
        }
        try {
            emitCommitted(committed);
        } finally {
            committablesToCome--;
        }
        handedOver();
    }

    private void handedOver() {
        if (committablesToCome <= 0 && summarized != CommittableMessage.EOI) {
            committedThrough = Math.max(committedThrough, summarized);
            reportIfSettled();
        }
    }

    private void emitCommitted(CommittableWithLineage<BlobSetCommittable> committed) throws IOException {
        BlobSetCommittable set = committed.getCommittable();
        // A set whose committable was restored from version 1 bytes knows no index size.
        if (sharingIndexEntries != null && set.sharingIndexEntries() != BlobSetCommittable.NO_SHARING_INDEX) {
            sharingIndexEntries.add(set.sharingIndexEntries());
        }
        if (endOfInput) {
            blobSetsNotDelivered.inc();
            LOG.error(
                    "Blob set {} (checkpoint {}, {} rows) was committed after the end of input; Flink 2.2 cannot "
                            + "deliver its descriptors downstream any more (FLINK-38614). Re-emit them from {}",
                    set.blobSet(),
                    committed.getCheckpointId(),
                    set.rowCount(),
                    set.manifestPath());
            return;
        }
        emit(EmittedBlobSet.of(set), true);
        blobSetsEmitted.inc();
    }

    private void emit(EmittedBlobSet set, boolean firstTime) throws IOException {
        boolean once = firstTime && emitOnce;
        deliveries.sending();
        long rows = 0;
        try (DescriptorManifestReader manifest = DescriptorManifestReader.open(set.manifestPath())) {
            if (!manifest.blobSet().equals(set.blobSet())) {
                throw new IOException(manifest.location() + ": manifest is for blob set " + manifest.blobSet()
                        + ", expected " + set.blobSet());
            }
            for (DescriptorRow row = manifest.nextRow(); row != null; row = manifest.nextRow()) {
                deliveries.sendingRow(row);
                output.collect(reuse.replace(row));
                if (once) {
                    output.collect(ONCE, reuse.replace(row));
                }
                rows++;
            }
        }
        if (rows != set.rowCount()) {
            throw new IOException(set.manifestPath() + ": committed manifest has " + rows + " rows, blob set "
                    + set.blobSet() + " was sealed with " + set.rowCount());
        }
        rowsEmitted.inc(rows);
        deliveries.sent(set);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        reportIfSettled();
    }

    private void reportIfSettled() {
        if (drainCoordinator != null && committedThrough > reportedThrough && deliveries.settled()) {
            drainCoordinator.sendEventToCoordinator(new DrainCoordinator.Settled(committedThrough));
            reportedThrough = committedThrough;
        }
    }

    /** After the wait for every row sent to be committed: a set committed from now on is logged, never sent. */
    @Override
    public void endInput() throws Exception {
        super.endInput();
        endOfInput = true;
    }

    /**
     * Creates the emitter with the gateway to its {@link DrainCoordinator}, for a sink whose writers
     * read their input over {@link ContentRouting}'s network hop.
     */
    public static final class CoordinatedFactory extends SimpleOperatorFactory<DescriptorRow>
            implements CoordinatedOperatorFactory<DescriptorRow>,
                    OneInputStreamOperatorFactory<CommittableMessage<BlobSetCommittable>, DescriptorRow> {

        private static final long serialVersionUID = 1L;

        private final String signalKey;

        /** @param signalKey where the emitters' coordinator meets the drains' ({@link DrainSignal}) */
        public CoordinatedFactory(CommittedDescriptorEmitter emitter, String signalKey) {
            super(emitter);
            this.signalKey = signalKey;
        }

        @Override
        public <T extends StreamOperator<DescriptorRow>> T createStreamOperator(
                StreamOperatorParameters<DescriptorRow> parameters) {
            T operator = super.createStreamOperator(parameters);
            ((CommittedDescriptorEmitter) operator).drainCoordinator = parameters
                    .getOperatorEventDispatcher()
                    .getOperatorEventGateway(parameters.getStreamConfig().getOperatorID());
            return operator;
        }

        @Override
        public OperatorCoordinator.Provider getCoordinatorProvider(String operatorName, OperatorID operatorId) {
            return new DrainCoordinator.Provider(operatorId, signalKey, DrainCoordinator.Role.EMITTER);
        }
    }
}
