package io.blobingest.sink.internal.delivery;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.DescriptorDeliveryCheck;
import io.blobingest.sink.internal.state.PendingDeliverySerializer;
import java.util.Optional;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.tasks.mailbox.TaskMailbox;

/**
 * An operator that sends descriptor rows, in units it can read again, to a transactional
 * descriptor sink chained behind it, with {@link DescriptorDeliveries} keeping track of every epoch
 * until it is known to be committed: its lifecycle calls go to that bookkeeping, and the end of
 * input passes on only once every row sent is known to be committed. A subclass sends the rows of
 * each unit between {@link DescriptorDeliveries#sending} and {@link DescriptorDeliveries#sent}
 * and sends them again when asked ({@link DescriptorDeliveries.Units#resend}).
 *
 * @param <U> what one unit of rows is, and is kept as in the operator state
 */
abstract class DeliveryCheckedEmitter<IN, U> extends AbstractStreamOperator<DescriptorRow>
        implements OneInputStreamOperator<IN, DescriptorRow>, BoundedOneInput, DescriptorDeliveries.Units<U> {

    private static final long serialVersionUID = 1L;

    /** Null: no check, nothing kept (a descriptor sink that cannot lose a committed epoch). */
    private final DescriptorDeliveryCheck deliveryCheck;

    private final String stateName;
    /** The run id of a start without restored state ({@link DeliveryMarkers}): drawn once, when the job is built. */
    private final String freshRun = DeliveryMarkers.newRunId();

    private final String basePath;
    private final boolean allowOlderRestore;
    private final String unitsName;

    protected transient DescriptorDeliveries<U> deliveries;

    /**
     * @param stateName the operator list state of the epochs not yet known to be delivered
     * @param basePath where the delivery markers go ({@link DeliveryMarkers}): the job's own base
     * @param unitsName what the units are, for messages
     */
    DeliveryCheckedEmitter(
            DescriptorDeliveryCheck deliveryCheck,
            String stateName,
            String basePath,
            boolean allowOlderRestore,
            String unitsName) {
        this.deliveryCheck = deliveryCheck;
        this.stateName = stateName;
        this.basePath = basePath;
        this.allowOlderRestore = allowOlderRestore;
        this.unitsName = unitsName;
    }

    /** The bytes of a unit in the operator state. */
    abstract PendingDeliverySerializer.UnitCodec<U> unitCodec();

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        deliveries = new DescriptorDeliveries<>(
                deliveryCheck, stateName, freshRun, unitCodec(), basePath, allowOlderRestore, unitsName, this);
        deliveries.initializeState(context, getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
    }

    /** Settles the restored epochs, which may send rows again: a subclass opens its own parts first. */
    @Override
    public void open() throws Exception {
        super.open();
        deliveries.open();
    }

    @Override
    public Optional<U> merge(U last, U next) {
        return Optional.empty();
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        deliveries.beforeBarrier();
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        deliveries.snapshotState(context.getCheckpointId());
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        deliveries.checkpointComplete(checkpointId);
    }

    /**
     * Holds the end of input until every row this operator sent is known to be committed ({@link
     * DescriptorDeliveries#awaitEveryRowCommitted}): the current epoch holds the last rows, and
     * only a checked commit of it may let the end of input pass to the descriptor sink.
     */
    @Override
    public void endInput() throws Exception {
        deliveries.awaitEveryRowCommitted(
                getContainingTask().getMailboxExecutorFactory().createExecutor(TaskMailbox.MIN_PRIORITY),
                checkpointsReachTaskAfterEndOfInput());
    }

    /**
     * Whether this task still takes checkpoints while its end of input is held: it does when its
     * input is a source chained in front of it (the triggers come through its mailbox), not when
     * its input comes over the network.
     */
    boolean checkpointsReachTaskAfterEndOfInput() {
        return true;
    }

    @Override
    public void close() throws Exception {
        try {
            if (deliveries != null) {
                deliveries.close();
            }
        } finally {
            super.close();
        }
    }
}
