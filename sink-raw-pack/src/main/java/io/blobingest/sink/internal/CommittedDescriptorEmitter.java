package io.blobingest.sink.internal;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import java.io.IOException;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The post-commit step: for each blob set the committer has published, reads its committed
 * manifest and emits every row, Inline and External ones included, to the descriptor sink. A row
 * is never emitted before the bytes it names are committed.
 *
 * <p>Stateless. Exactly-once delivery comes from Flink's committer operator, which emits a
 * checkpoint's committables only after committing them on {@code notifyCheckpointComplete} and,
 * after a restore, re-commits and re-emits those still in its state; the descriptor sink must be
 * transactional so that rows emitted before a failure and not yet in one of its own completed
 * checkpoints are discarded (see {@code docs/exactly-once.md}).
 *
 * <p>Flink 2.2 emits the committables of a job's final checkpoint (end of bounded input, or stop
 * with {@code --drain}) after this operator's input has ended (FLINK-38614), when the descriptor
 * sink can no longer take records. {@link DescriptorDrainOperator} prevents that by committing
 * and delivering everything before the end of input passes; should a set still arrive after it,
 * it is logged as an error and counted in {@code blobSetsNotDelivered}, never dropped silently.
 */
public final class CommittedDescriptorEmitter extends AbstractStreamOperator<DescriptorRow>
        implements OneInputStreamOperator<CommittableMessage<BlobSetCommittable>, DescriptorRow>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(CommittedDescriptorEmitter.class);

    private transient StreamRecord<DescriptorRow> reuse;
    private transient Counter rowsEmitted;
    private transient Counter blobSetsEmitted;
    private transient Counter blobSetsNotDelivered;
    private transient boolean endOfInput;

    @Override
    public void open() throws Exception {
        super.open();
        reuse = new StreamRecord<>(null);
        rowsEmitted = getMetricGroup().counter("descriptorRowsEmitted");
        blobSetsEmitted = getMetricGroup().counter("blobSetsEmitted");
        blobSetsNotDelivered = getMetricGroup().counter("blobSetsNotDelivered");
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<BlobSetCommittable>> element) throws IOException {
        if (!(element.getValue() instanceof CommittableWithLineage<BlobSetCommittable> committed)) {
            return;
        }
        BlobSetCommittable set = committed.getCommittable();
        if (endOfInput) {
            blobSetsNotDelivered.inc();
            LOG.error("Blob set {} (checkpoint {}, {} rows) was committed after the end of input; Flink 2.2 cannot "
                            + "deliver its descriptors downstream any more (FLINK-38614). Re-emit them from {}",
                    set.blobSet(), committed.getCheckpointId(), set.rowCount(), set.manifestPath());
            return;
        }
        emit(set);
    }

    private void emit(BlobSetCommittable set) throws IOException {
        long rows;
        try (DescriptorManifestReader manifest = DescriptorManifestReader.open(set.manifestPath())) {
            if (!manifest.blobSet().equals(set.blobSet())) {
                throw new IOException(manifest.location() + ": manifest is for blob set " + manifest.blobSet()
                        + ", expected " + set.blobSet());
            }
            long[] count = {0};
            manifest.forEachRow(row -> {
                output.collect(reuse.replace(row));
                count[0]++;
            });
            rows = count[0];
        }
        if (rows != set.rowCount()) {
            throw new IOException(set.manifestPath() + ": committed manifest has " + rows + " rows, blob set "
                    + set.blobSet() + " was sealed with " + set.rowCount());
        }
        rowsEmitted.inc(rows);
        blobSetsEmitted.inc();
    }

    @Override
    public void endInput() {
        endOfInput = true;
    }
}
