package io.blobingest.sink.internal.delivery;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.DescriptorDeliveryCheck;
import io.blobingest.sink.internal.state.PendingDeliverySerializer;
import io.blobingest.sink.manifest.ManifestRow;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Sends rows read from descriptor manifests on to a transactional descriptor sink chained behind
 * it, and makes sure each arrives: the backfill's passed-through rows. Like the Raw Pack sink's
 * {@link CommittedDescriptorEmitter}, it keeps in its state what it sent per epoch, here as runs of
 * manifest rows ({@link ManifestRowRun}), asks the {@link DescriptorDeliveryCheck} about each epoch
 * once its checkpoint is complete, reads the rows of an aborted one from their manifests and sends
 * them again ({@link DescriptorDeliveries}), and holds the end of input until every row is known
 * to be committed. Without it, a transaction of passed-through rows aborted after its checkpoint
 * (the broker's transaction timeout, a fencing producer) lost them: the source had read past them,
 * and Kafka's committer only logs the abort.
 *
 * <p>Metrics: {@code passedThroughRowsEmitted}, {@code passedThroughRowsReEmitted}.
 */
@Internal
public final class ManifestRowEmitter extends DeliveryCheckedEmitter<ManifestRow, ManifestRowRun> {

    private static final long serialVersionUID = 1L;

    /** The operator list state of the epochs not yet known to be delivered. */
    private static final String PENDING_DELIVERIES = "pending-passed-through-deliveries";

    private transient StreamRecord<DescriptorRow> reuse;
    private transient Counter rowsEmitted;
    private transient Counter rowsReEmitted;

    /** @param basePath where the delivery markers go ({@link DeliveryMarkers}): the job's own base */
    public ManifestRowEmitter(DescriptorDeliveryCheck deliveryCheck, String basePath, boolean allowOlderRestore) {
        super(deliveryCheck, PENDING_DELIVERIES, basePath, allowOlderRestore, "runs of manifest rows");
    }

    @Override
    PendingDeliverySerializer.UnitCodec<ManifestRowRun> unitCodec() {
        return ManifestRowRun.CODEC;
    }

    @Override
    public void resend(ManifestRowRun run) throws IOException {
        deliveries.sending();
        run.readRows(row -> {
            deliveries.sendingRow(row);
            output.collect(reuse.replace(row));
            return true;
        });
        deliveries.sent(run);
        rowsReEmitted.inc(run.rowCount());
    }

    @Override
    public void readRows(ManifestRowRun run, Predicate<DescriptorRow> more) throws IOException {
        run.readRows(more::test);
    }

    @Override
    public Optional<ManifestRowRun> merge(ManifestRowRun last, ManifestRowRun next) {
        return last.followedBy(next);
    }

    @Override
    public void open() throws Exception {
        reuse = new StreamRecord<>(null);
        rowsEmitted = getMetricGroup().counter("passedThroughRowsEmitted");
        rowsReEmitted = getMetricGroup().counter("passedThroughRowsReEmitted");
        super.open();
    }

    @Override
    public void processElement(StreamRecord<ManifestRow> element) throws IOException {
        ManifestRow row = element.getValue();
        deliveries.sending();
        deliveries.sendingRow(row.row());
        output.collect(reuse.replace(row.row()));
        deliveries.sent(ManifestRowRun.of(row));
        rowsEmitted.inc();
    }
}
