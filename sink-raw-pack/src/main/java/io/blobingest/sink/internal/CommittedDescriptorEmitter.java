package io.blobingest.sink.internal;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.DescriptorDeliveryCheck;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.util.SimpleVersionedListState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.mailbox.TaskMailbox;
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
 * undecided ones are asked about again later. A check that cannot answer fails the job; the
 * pending epochs stay in the last checkpoint's state for the next attempt.
 *
 * <p>Flink 2.2 emits the committables of a job's final checkpoint (end of bounded input, or stop
 * with {@code --drain}) after this operator's input has ended (FLINK-38614), when the descriptor
 * sink can no longer take records. {@link DescriptorDrainOperator} prevents that by committing
 * and delivering everything before the end of input passes; should a set still arrive after it,
 * it is logged as an error and counted in {@code blobSetsNotDelivered}, never dropped silently.
 *
 * <p>Further descriptor outputs (a Lance dataset) commit with their own checkpoints and do not
 * lose a committed epoch with the descriptor sink: they read {@link #ONCE}, where each committed
 * set's rows are emitted when it first arrives from the committer and not again when an aborted
 * descriptor transaction makes this operator send them to the descriptor sink a second time.
 */
public final class CommittedDescriptorEmitter extends AbstractStreamOperator<DescriptorRow>
        implements OneInputStreamOperator<CommittableMessage<BlobSetCommittable>, DescriptorRow>, BoundedOneInput {

    private static final long serialVersionUID = 2L;

    private static final Logger LOG = LoggerFactory.getLogger(CommittedDescriptorEmitter.class);

    private static final ListStateDescriptor<byte[]> PENDING_DELIVERIES =
            new ListStateDescriptor<>("pending-descriptor-deliveries", BytePrimitiveArraySerializer.INSTANCE);

    /**
     * The rows of each committed set as the committer hands it over, never the re-emissions of an
     * aborted descriptor epoch; filled only when built with {@code emitOnce}.
     */
    public static final OutputTag<DescriptorRow> ONCE =
            new OutputTag<>("committed-descriptors-once", TypeInformation.of(DescriptorRow.class));

    /** Null: no check, nothing kept (a descriptor sink that cannot lose a committed epoch). */
    private final DescriptorDeliveryCheck deliveryCheck;

    private final String basePath;
    private final boolean allowOlderRestore;
    private final boolean emitOnce;

    private transient StreamRecord<DescriptorRow> reuse;
    private transient Counter rowsEmitted;
    private transient Counter blobSetsEmitted;
    private transient Counter blobSetsReEmitted;
    private transient Counter blobSetsNotDelivered;
    private transient boolean endOfInput;

    private transient ListState<PendingDelivery> pendingState;
    /** Epochs emitted into and not yet known to be committed, oldest first. */
    private transient List<PendingDelivery> pending;
    /** Sets emitted into the current epoch. */
    private transient List<EmittedBlobSet> currentEpochSets;
    /** The wall-clock time just before the current epoch's first row was sent. */
    private transient long currentEpochFirstRowSentAt;
    /** The checkpoint that will close the current epoch. */
    private transient long currentEpoch;

    private transient DescriptorDeliveryCheck.Session checkSession;
    private transient DeliveryMarkers markers;
    /** Whether the destination was checked since the current epoch began (see {@link #emit}). */
    private transient boolean destinationCheckedThisEpoch;

    /** @param emitOnce whether to fill {@link #ONCE} as well (there are further descriptor outputs) */
    public CommittedDescriptorEmitter(SinkSettings settings, DescriptorDeliveryCheck deliveryCheck, boolean emitOnce) {
        this.deliveryCheck = deliveryCheck;
        this.emitOnce = emitOnce;
        this.basePath = settings.basePath();
        this.allowOlderRestore = settings.allowOlderRestore();
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        pendingState = new SimpleVersionedListState<>(
                context.getOperatorStateStore().getListState(PENDING_DELIVERIES), new PendingDeliverySerializer());
        pending = new ArrayList<>();
        currentEpochSets = new ArrayList<>();
        // The descriptor sink starts its first transaction for the checkpoint after the restored
        // one (KafkaSink: restored id + 1, or 1), and a new one after each checkpoint it takes.
        currentEpoch = context.getRestoredCheckpointId().orElse(0L) + 1;
        for (PendingDelivery delivery : pendingState.get()) {
            pending.add(delivery);
        }
        if (deliveryCheck != null) {
            markers = new DeliveryMarkers(new Path(basePath), deliveryCheck.lineage());
            if (context.getRestoredCheckpointId().isPresent()) {
                guardAgainstOlderRestore(context.getRestoredCheckpointId().getAsLong());
            }
        }
    }

    /**
     * Runs before the committer further up the chain commits and re-emits its restored sets: a job
     * restored from its latest checkpoint {@code c} has delivered no epoch above {@code c}.
     */
    private void guardAgainstOlderRestore(long restoredCheckpoint) throws IOException {
        OptionalLong latest = markers.latestDelivered();
        if (latest.isEmpty() || latest.getAsLong() <= restoredCheckpoint) {
            return;
        }
        String what = "restored checkpoint " + restoredCheckpoint + " is older than what this job has already "
                + "delivered: descriptor epoch " + latest.getAsLong() + " is committed (" + markers.directory()
                + "). This is a restore from an older checkpoint, or a second one from the same savepoint; every "
                + "descriptor delivered after checkpoint " + restoredCheckpoint + " would be delivered again";
        if (!allowOlderRestore) {
            throw new IllegalStateException(what + ". Restore the job's latest checkpoint, or set "
                    + RawPackSinkOptions.ALLOW_OLDER_RESTORE.key() + ": true to accept the duplicates.");
        }
        LOG.warn(
                "{}: accepted ({}: true). Forgetting the markers of the abandoned run.",
                what,
                RawPackSinkOptions.ALLOW_OLDER_RESTORE.key());
        if (getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0) {
            markers.forgetAll();
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        reuse = new StreamRecord<>(null);
        rowsEmitted = getMetricGroup().counter("descriptorRowsEmitted");
        blobSetsEmitted = getMetricGroup().counter("blobSetsEmitted");
        blobSetsReEmitted = getMetricGroup().counter("blobSetsReEmitted");
        blobSetsNotDelivered = getMetricGroup().counter("blobSetsNotDelivered");
        if (deliveryCheck != null) {
            checkSession = deliveryCheck.open(markers.directory());
            // Before settling (which writes markers) and before the committer further up the chain
            // re-emits its restored sets into this epoch.
            checkSession.checkDestination();
            destinationCheckedThisEpoch = true;
            if (!pending.isEmpty()) {
                // Every restored epoch is closed by the restored checkpoint or an earlier one; the
                // descriptor sink's committer, further down the chain and so initialized first, has
                // already committed what its restored state held.
                LOG.info("Checking the delivery of {} restored epochs of descriptors: {}", pending.size(), pending);
                settle(currentEpoch - 1);
            }
        } else if (!pending.isEmpty()) {
            throw new IllegalStateException("restored " + pending.size() + " pending descriptor deliveries " + pending
                    + " but this sink has no descriptor delivery check to settle them");
        }
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<BlobSetCommittable>> element) throws IOException {
        if (!(element.getValue() instanceof CommittableWithLineage<BlobSetCommittable> committed)) {
            return;
        }
        BlobSetCommittable set = committed.getCommittable();
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
        if (deliveryCheck != null && currentEpochSets.isEmpty()) {
            currentEpochFirstRowSentAt = System.currentTimeMillis();
        }
        if (deliveryCheck != null && !destinationCheckedThisEpoch) {
            // The epoch's first row: from here to the barrier check, rows go where the check found.
            checkSession.checkDestination();
            destinationCheckedThisEpoch = true;
        }
        long rows;
        try (DescriptorManifestReader manifest = DescriptorManifestReader.open(set.manifestPath())) {
            if (!manifest.blobSet().equals(set.blobSet())) {
                throw new IOException(manifest.location() + ": manifest is for blob set " + manifest.blobSet()
                        + ", expected " + set.blobSet());
            }
            long[] count = {0};
            manifest.forEachRow(row -> {
                output.collect(reuse.replace(row));
                if (once) {
                    output.collect(ONCE, reuse.replace(row));
                }
                count[0]++;
            });
            rows = count[0];
        }
        if (rows != set.rowCount()) {
            throw new IOException(set.manifestPath() + ": committed manifest has " + rows + " rows, blob set "
                    + set.blobSet() + " was sealed with " + set.rowCount());
        }
        rowsEmitted.inc(rows);
        if (deliveryCheck != null) {
            currentEpochSets.add(set);
        }
    }

    /**
     * Checks the destination once more before the barrier closes an epoch that holds rows: if it
     * changed since the epoch's first row, the task fails here, before the barrier leaves, so the
     * checkpoint cannot complete and the epoch's transaction is never committed. Not in the
     * synchronous snapshot: an exception there is reported as a declined checkpoint, which a job that
     * tolerates failed checkpoints may go past, and the committer commits a checkpoint's
     * transactions with any later one that completes.
     */
    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        if (deliveryCheck != null && !currentEpochSets.isEmpty()) {
            checkSession.checkDestination();
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        destinationCheckedThisEpoch = false;
        if (!currentEpochSets.isEmpty()) {
            pending.add(new PendingDelivery(
                    getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                    currentEpoch,
                    currentEpochFirstRowSentAt,
                    currentEpochSets));
            currentEpochSets = new ArrayList<>();
        }
        pendingState.update(pending);
        // The descriptor sink's writer, snapshotted in the same call, starts its next transaction now.
        currentEpoch = context.getCheckpointId() + 1;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        if (deliveryCheck != null) {
            settle(checkpointId);
        }
    }

    /** Forgets the committed epochs closed by {@code checkpointId} or earlier, re-emits the aborted ones. */
    private void settle(long checkpointId) throws IOException {
        PendingDelivery latestCommitted = null;
        for (Iterator<PendingDelivery> it = pending.iterator(); it.hasNext(); ) {
            PendingDelivery delivery = it.next();
            if (delivery.epoch() > checkpointId) {
                continue;
            }
            DescriptorDeliveryCheck.Outcome outcome;
            try {
                outcome = checkSession.outcome(new PendingEpoch(delivery));
            } catch (IOException e) {
                throw new IOException(
                        "cannot learn whether the descriptors of blob sets " + delivery.blobSetNames()
                                + " (subtask " + delivery.subtask() + ", epoch " + delivery.epoch()
                                + ") were delivered; "
                                + "they stay pending in the last checkpoint",
                        e);
            }
            switch (outcome) {
                case COMMITTED -> {
                    it.remove();
                    if (latestCommitted == null || delivery.epoch() > latestCommitted.epoch()) {
                        latestCommitted = delivery;
                    }
                }
                case ABORTED -> {
                    reEmit(delivery);
                    it.remove();
                }
                case OPEN ->
                    LOG.info(
                            "Descriptor transaction of subtask {}, epoch {} is still open at checkpoint {}; "
                                    + "asking again at the next one",
                            delivery.subtask(),
                            delivery.epoch(),
                            checkpointId);
            }
        }
        if (latestCommitted != null) {
            markers.delivered(latestCommitted.subtask(), latestCommitted.epoch());
        }
    }

    private void reEmit(PendingDelivery delivery) throws IOException {
        LOG.warn(
                "The descriptor transaction of subtask {}, epoch {} was aborted (the broker's transaction timeout, "
                        + "or a fencing producer): sending the descriptors of its {} blob sets {} again, into epoch {}",
                delivery.subtask(),
                delivery.epoch(),
                delivery.sets().size(),
                delivery.blobSetNames(),
                currentEpoch);
        for (EmittedBlobSet set : delivery.sets()) {
            emit(set, false);
            blobSetsReEmitted.inc();
        }
    }

    /**
     * Waits, serving the task's mailbox (checkpoints and their notifications), until every row this
     * operator sent is known to be committed: the current epoch, which holds the last blob sets'
     * rows, is closed by the next checkpoint and checked on its notification like any other, and
     * an epoch found aborted is sent again and waited for in turn. Only then does the end of input
     * pass to the descriptor sink. The job's final checkpoint then commits an empty epoch: its
     * notification is the last call Flink makes on the task, too late to send anything again, so a
     * last epoch committed there unchecked would be lost without a word if its transaction were
     * aborted (the broker's timeout, a fencing producer). Costs a bounded run one checkpoint.
     */
    @Override
    public void endInput() throws InterruptedException {
        if (deliveryCheck != null && !everyRowKnownCommitted()) {
            LOG.info(
                    "Input ended: waiting until the descriptors of the current epoch ({} blob sets) and of {} "
                            + "closed epochs are delivered: {}",
                    currentEpochSets.size(),
                    pending.size(),
                    pending);
            MailboxExecutor mailbox =
                    getContainingTask().getMailboxExecutorFactory().createExecutor(TaskMailbox.MIN_PRIORITY);
            while (!everyRowKnownCommitted()) {
                mailbox.yield();
            }
        }
        endOfInput = true;
    }

    /** No row sent into the current epoch, and no closed epoch still to be settled. */
    private boolean everyRowKnownCommitted() {
        return pending.isEmpty() && currentEpochSets.isEmpty();
    }

    /** A pending delivery as the check sees it; its sample row is read only if the check asks. */
    private record PendingEpoch(PendingDelivery delivery) implements DescriptorDeliveryCheck.Epoch {

        @Override
        public int subtask() {
            return delivery.subtask();
        }

        @Override
        public long epoch() {
            return delivery.epoch();
        }

        @Override
        public long firstRowSentAtMillis() {
            return delivery.firstRowSentAtMillis();
        }

        @Override
        public Optional<DescriptorRow> sampleRow() throws IOException {
            DescriptorRow any = null;
            for (EmittedBlobSet set : delivery.sets()) {
                if (set.rowCount() == 0) {
                    continue;
                }
                try (DescriptorManifestReader manifest = DescriptorManifestReader.open(set.manifestPath())) {
                    for (DescriptorRow row = manifest.nextRow(); row != null; row = manifest.nextRow()) {
                        if (row.blobSet() != null) {
                            return Optional.of(row);
                        }
                        if (any == null) {
                            any = row;
                        }
                    }
                }
            }
            return Optional.ofNullable(any);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (checkSession != null) {
                checkSession.close();
            }
        } finally {
            super.close();
        }
    }
}
