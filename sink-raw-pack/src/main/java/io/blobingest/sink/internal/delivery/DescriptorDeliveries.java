package io.blobingest.sink.internal.delivery;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.DescriptorDeliveryCheck;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.internal.state.DeliveryRunSerializer;
import io.blobingest.sink.internal.state.PendingDeliverySerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.operators.util.SimpleVersionedListState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bookkeeping behind exactly-once delivery to a transactional descriptor sink whose
 * transaction may be aborted after the checkpoint that closed it (Kafka: the broker's transaction
 * timeout, a fencing producer), which the sink's committer only logs. The operator that sends rows
 * to that sink, chained in front of it, tells this of every unit of rows it sends ({@link #sent})
 * and calls its lifecycle methods from its own. This keeps, in the operator's state, the units
 * sent per epoch (the rows between two checkpoints, one descriptor transaction), and on each
 * completed checkpoint, and on restore, asks the {@link DescriptorDeliveryCheck} what became of
 * every epoch that checkpoint closes: committed ones are forgotten (and their delivery marker
 * written), aborted ones are sent again ({@link Units#resend}, into the current epoch, checked in
 * turn), undecided ones are asked about again later. A check that cannot answer fails the job; the
 * pending epochs stay in the last checkpoint's state for the next attempt.
 *
 * <p>A unit is whatever the operator can read and send again: a committed blob set (the Raw Pack
 * sink's {@link CommittedDescriptorEmitter}), a run of manifest rows (the backfill's passed-through
 * rows, {@link ManifestRowEmitter}); both are {@link DeliveryCheckedEmitter}s. Without a check
 * nothing is kept (a descriptor sink that cannot lose a committed epoch), and restored pending
 * epochs are refused.
 */
final class DescriptorDeliveries<U> {

    private static final Logger LOG = LoggerFactory.getLogger(DescriptorDeliveries.class);

    /** The one key of the run id's broadcast state. */
    private static final String RUN_KEY = "run";

    /** What the operator sends, as far as this bookkeeping needs it. */
    interface Units<U> {

        /** Sends the rows of {@code unit} again, telling {@link #sent} as for any unit. */
        void resend(U unit) throws IOException;

        /** Reads the rows of {@code unit} again, in order, while {@code more} returns true. */
        void readRows(U unit, Predicate<DescriptorRow> more) throws IOException;

        /** {@code last} and {@code next}, sent one after the other, as one unit, if they can be. */
        Optional<U> merge(U last, U next);
    }

    private final DescriptorDeliveryCheck check;
    private final String stateName;
    private final String freshRun;
    private final PendingDeliverySerializer.UnitCodec<U> codec;
    private final String basePath;
    private final boolean allowOlderRestore;
    private final String unitsName;
    private final Units<U> units;

    private int subtask;
    private ListState<PendingDelivery<U>> pendingState;
    /**
     * The run id, under {@link #RUN_KEY}, in broadcast state: every subtask restores it, at any
     * parallelism. Not union list state, which Flink refuses in a vertex whose subtasks have partly
     * finished (a bounded run's end). Empty for a run restored from state without one.
     */
    private BroadcastState<String, byte[]> runState;
    /** The run these deliveries belong to ({@link DeliveryMarkers}); null: restored state from before run ids. */
    private String run;
    /** Epochs sent into and not yet known to be committed, oldest first. */
    private List<PendingDelivery<U>> pending;
    /** Units sent into the current epoch. */
    private List<U> current;
    /** The wall-clock time just before the current epoch's first row was sent. */
    private long currentFirstRowSentAt;
    /** The checkpoint that will close the current epoch. */
    private long currentEpoch;

    private DescriptorDeliveryCheck.Session session;
    private DeliveryMarkers markers;
    /** Whether the destination was checked since the current epoch began (see {@link #sending}). */
    private boolean destinationCheckedThisEpoch;

    /**
     * @param check null: nothing is kept
     * @param stateName the operator list state that holds the pending epochs; the run id is kept in
     *     the broadcast state {@code <stateName>-run}
     * @param freshRun the run id if the operator starts without restored state ({@link
     *     DeliveryMarkers#newRunId}, drawn when the job was built)
     * @param basePath where the delivery markers go ({@link DeliveryMarkers})
     * @param unitsName what the units are, for messages ("blob sets")
     */
    DescriptorDeliveries(
            DescriptorDeliveryCheck check,
            String stateName,
            String freshRun,
            PendingDeliverySerializer.UnitCodec<U> codec,
            String basePath,
            boolean allowOlderRestore,
            String unitsName,
            Units<U> units) {
        this.check = check;
        this.stateName = stateName;
        this.freshRun = freshRun;
        this.codec = codec;
        this.basePath = basePath;
        this.allowOlderRestore = allowOlderRestore;
        this.unitsName = unitsName;
        this.units = units;
    }

    /** From the operator's {@code initializeState}. */
    void initializeState(StateInitializationContext context, int subtask) throws Exception {
        this.subtask = subtask;
        pendingState = new SimpleVersionedListState<>(
                context.getOperatorStateStore()
                        .getListState(new ListStateDescriptor<>(stateName, BytePrimitiveArraySerializer.INSTANCE)),
                new PendingDeliverySerializer<>(codec));
        pending = new ArrayList<>();
        current = new ArrayList<>();
        // The descriptor sink starts its first transaction for the checkpoint after the restored
        // one (KafkaSink: restored id + 1, or 1), and a new one after each checkpoint it takes.
        currentEpoch = context.getRestoredCheckpointId().orElse(0L) + 1;
        for (PendingDelivery<U> delivery : pendingState.get()) {
            pending.add(delivery);
        }
        runState = context.getOperatorStateStore()
                .getBroadcastState(new MapStateDescriptor<>(
                        stateName + "-run", StringSerializer.INSTANCE, BytePrimitiveArraySerializer.INSTANCE));
        run = context.getRestoredCheckpointId().isPresent() ? restoredRun() : freshRun;
        if (run != null) {
            runState.put(
                    RUN_KEY,
                    SimpleVersionedSerialization.writeVersionAndSerialize(DeliveryRunSerializer.INSTANCE, run));
        }
        if (check != null) {
            markers = new DeliveryMarkers(new Path(basePath), check.lineage(), run);
            if (context.getRestoredCheckpointId().isPresent()) {
                guardAgainstOlderRestore(context.getRestoredCheckpointId().getAsLong());
            }
        }
    }

    /** The run of the restored state; null in state from before run ids. */
    private String restoredRun() throws Exception {
        byte[] bytes = runState.get(RUN_KEY);
        return bytes == null
                ? null
                : SimpleVersionedSerialization.readVersionAndDeSerialize(DeliveryRunSerializer.INSTANCE, bytes);
    }

    /**
     * Runs before the committer further down the chain commits its restored transactions and what
     * sends to it re-emits: a job restored from its latest checkpoint {@code c} has delivered no
     * epoch above {@code c}.
     */
    private void guardAgainstOlderRestore(long restoredCheckpoint) throws IOException {
        OptionalLong latest = markers.latestDelivered();
        Optional<String> laterRun = markers.laterRun();
        String what;
        if (latest.isPresent() && latest.getAsLong() > restoredCheckpoint) {
            what = "restored checkpoint " + restoredCheckpoint + " is older than what this job has already "
                    + "delivered: descriptor epoch " + latest.getAsLong() + " is committed (" + markers.directory()
                    + "). This is a restore from an older checkpoint, or a second one from the same savepoint; every "
                    + "descriptor delivered after checkpoint " + restoredCheckpoint + " would be delivered again";
        } else if (laterRun.isPresent()) {
            what = "restored checkpoint " + restoredCheckpoint + " is older than what this job has already "
                    + "delivered: it belongs to run " + (run == null ? "(from before run ids)" : run)
                    + ", and the later run " + laterRun.get() + " has delivered since ("
                    + new Path(markers.lineageDirectory(), laterRun.get()) + "). This is a restore of an earlier "
                    + "run's state; every descriptor delivered after checkpoint " + restoredCheckpoint
                    + " would be delivered again";
        } else {
            return;
        }
        if (!allowOlderRestore) {
            throw new IllegalStateException(what + ". Restore the job's latest checkpoint, or set "
                    + RawPackSinkOptions.ALLOW_OLDER_RESTORE.key() + ": true to accept the duplicates.");
        }
        LOG.warn(
                "{}: accepted ({}: true). Forgetting the markers of the abandoned run.",
                what,
                RawPackSinkOptions.ALLOW_OLDER_RESTORE.key());
        if (subtask == 0) {
            markers.forgetAll();
        }
    }

    /**
     * From the operator's {@code open}: settles the restored epochs. Every one is closed by the
     * restored checkpoint or an earlier one; the descriptor sink's committer, further down the
     * chain and so initialized first, has already committed what its restored state held.
     */
    void open() throws IOException {
        if (check == null) {
            if (!pending.isEmpty()) {
                throw new IllegalStateException("restored " + pending.size() + " pending descriptor deliveries "
                        + pending + " but this sink has no descriptor delivery check to settle them");
            }
            return;
        }
        session = check.open(markers.lineageDirectory());
        // Before settling (which writes markers) and before the committer further up the chain
        // re-emits its restored sets into this epoch.
        session.checkDestination();
        destinationCheckedThisEpoch = true;
        if (!pending.isEmpty()) {
            LOG.info("Checking the delivery of {} restored epochs of descriptors: {}", pending.size(), pending);
            settle(currentEpoch - 1);
        }
    }

    /** Just before the first row of a unit is sent. */
    void sending() throws IOException {
        if (check == null) {
            return;
        }
        if (current.isEmpty()) {
            currentFirstRowSentAt = System.currentTimeMillis();
        }
        if (!destinationCheckedThisEpoch) {
            // The epoch's first row: from here to the barrier check, rows go where the check found.
            session.checkDestination();
            destinationCheckedThisEpoch = true;
        }
    }

    /** Before {@code row}, one of a unit's, is sent: its destination may be one not checked yet. */
    void sendingRow(DescriptorRow row) throws IOException {
        if (check != null) {
            session.checkDestinationOf(row);
        }
    }

    /**
     * From the operator's {@code prepareSnapshotPreBarrier}: checks the destination once more
     * before the barrier closes an epoch that holds rows. If it changed since the epoch's first
     * row, the task fails here, before the barrier leaves, so the checkpoint cannot complete and the
     * epoch's transaction is never committed. Not in the synchronous snapshot: an exception there
     * is reported as a declined checkpoint, which a job that tolerates failed checkpoints may go
     * past, and the committer commits a checkpoint's transactions with any later one that completes.
     */
    void beforeBarrier() throws IOException {
        if (check != null && !current.isEmpty()) {
            session.checkDestination();
        }
    }

    /** Once every row of {@code unit} is sent. */
    void sent(U unit) {
        if (check == null) {
            return;
        }
        if (!current.isEmpty()) {
            Optional<U> merged = units.merge(current.get(current.size() - 1), unit);
            if (merged.isPresent()) {
                current.set(current.size() - 1, merged.get());
                return;
            }
        }
        current.add(unit);
    }

    /** From the operator's {@code snapshotState}: the current epoch is closed by {@code checkpointId}. */
    void snapshotState(long checkpointId) throws Exception {
        destinationCheckedThisEpoch = false;
        if (!current.isEmpty()) {
            pending.add(new PendingDelivery<>(subtask, currentEpoch, currentFirstRowSentAt, current));
            current = new ArrayList<>();
        }
        pendingState.update(pending);
        // The descriptor sink's writer, snapshotted in the same call, starts its next transaction now.
        currentEpoch = checkpointId + 1;
    }

    /** From the operator's {@code notifyCheckpointComplete}. */
    void checkpointComplete(long checkpointId) throws IOException {
        if (check != null) {
            settle(checkpointId);
        }
    }

    /** Forgets the committed epochs closed by {@code checkpointId} or earlier, sends the aborted ones again. */
    private void settle(long checkpointId) throws IOException {
        PendingDelivery<U> latestCommitted = null;
        for (Iterator<PendingDelivery<U>> it = pending.iterator(); it.hasNext(); ) {
            PendingDelivery<U> delivery = it.next();
            if (delivery.epoch() > checkpointId) {
                continue;
            }
            DescriptorDeliveryCheck.Outcome outcome;
            try {
                outcome = session.outcome(new PendingEpoch(delivery));
            } catch (IOException e) {
                throw new IOException(
                        "cannot learn whether the descriptors of " + unitsName + " " + delivery.units()
                                + " (subtask " + delivery.subtask() + ", epoch " + delivery.epoch()
                                + ") were delivered; they stay pending in the last checkpoint",
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
                    resend(delivery);
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

    private void resend(PendingDelivery<U> delivery) throws IOException {
        LOG.warn(
                "The descriptor transaction of subtask {}, epoch {} was aborted (the broker's transaction timeout, "
                        + "or a fencing producer): sending the descriptors of its {} {} {} again, into epoch {}",
                delivery.subtask(),
                delivery.epoch(),
                delivery.units().size(),
                unitsName,
                delivery.units(),
                currentEpoch);
        for (U unit : delivery.units()) {
            units.resend(unit);
        }
    }

    /**
     * From the operator's {@code endInput}: waits, serving the task's mailbox (checkpoints and their
     * notifications), until every row sent is known to be committed. The current epoch is closed
     * by the next checkpoint and checked on its notification like any other, and an epoch found
     * aborted is sent again and waited for in turn. Only then may the end of input pass to the
     * descriptor sink: the job's final checkpoint commits an empty epoch, and its notification is
     * the last call Flink makes on the task, too late to send anything again, so a last epoch
     * committed there unchecked would be lost without a word if its transaction were aborted.
     * Costs a bounded run one checkpoint.
     *
     * @param checkpointsReachTask false if the task reads its input from the network: it cannot take
     *     a checkpoint while it holds its end of input, so rows not yet known to be committed fail
     *     the task instead (a restore sends them again) of waiting for ever
     */
    void awaitEveryRowCommitted(MailboxExecutor mailbox, boolean checkpointsReachTask) throws InterruptedException {
        if (check == null || everyRowKnownCommitted()) {
            return;
        }
        if (!checkpointsReachTask) {
            throw new IllegalStateException("Input ended while the descriptors of the current epoch (" + current.size()
                    + " " + unitsName + ") and of " + pending.size() + " closed epochs " + pending + " are not known"
                    + " to be delivered (a descriptor transaction aborted and sent again, or not yet decided). This"
                    + " task reads its input from the network and cannot take the checkpoint that would commit them"
                    + " once its input has ended: failing, so that the restored job delivers them");
        }
        LOG.info(
                "Input ended: waiting until the descriptors of the current epoch ({} {}) and of {} closed epochs "
                        + "are delivered: {}",
                current.size(),
                unitsName,
                pending.size(),
                pending);
        while (!everyRowKnownCommitted()) {
            mailbox.yield();
        }
    }

    /**
     * Whether nothing is left to wait for: every row sent is known to be committed, or there is no
     * check, and the descriptor sink's own next commit is all there is.
     */
    boolean settled() {
        return check == null || everyRowKnownCommitted();
    }

    /** No row sent into the current epoch, and no closed epoch still to be settled. */
    private boolean everyRowKnownCommitted() {
        return pending.isEmpty() && current.isEmpty();
    }

    /** From the operator's {@code close}. */
    void close() throws IOException {
        if (session != null) {
            session.close();
        }
    }

    /** A pending delivery as the check sees it; its sample row is read only if the check asks. */
    private final class PendingEpoch implements DescriptorDeliveryCheck.Epoch {
        private final PendingDelivery<U> delivery;

        PendingEpoch(PendingDelivery<U> delivery) {
            this.delivery = delivery;
        }

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
            DescriptorRow[] any = {null};
            DescriptorRow[] inASet = {null};
            for (U unit : delivery.units()) {
                units.readRows(unit, row -> {
                    if (row.blobSet() != null) {
                        inASet[0] = row;
                        return false;
                    }
                    if (any[0] == null) {
                        any[0] = row;
                    }
                    return true;
                });
                if (inASet[0] != null) {
                    return Optional.of(inASet[0]);
                }
            }
            return Optional.ofNullable(any[0]);
        }
    }
}
