package io.blobingest.lance.internal;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.storage.FlinkFileSystemStorage;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;

/**
 * The Lance output's parallel half: collects the committed descriptors that arrive between two
 * checkpoints and, just before each barrier (and at the end of input), writes them as Lance
 * fragments, handing their metadata to {@link LanceCommitter}. The fragments' data files are not
 * part of any dataset version until the committer's transaction names them. It also writes as soon
 * as {@link #MAX_BUFFERED_ROWS} rows or {@link #MAX_BUFFERED_INLINE_BYTES} of Inline bytes are held:
 * a backfill's passed-through rows come as fast as the manifests can be read, and fragments handed
 * over before the barrier are in that checkpoint's transaction all the same.
 *
 * <p>Before its first fragment it checks that the dataset has the batch's columns: the committer
 * adds missing ones when it starts, and a fragment with a column the dataset lacks would lose it.
 *
 * <p>Holds no state: rows not yet written when a failure strikes are delivered again after the
 * restore (the Raw Pack sink's committer re-emits what its restored checkpoint holds, the backfill's
 * manifest source reads them again), and data files written but never committed are unreferenced
 * files, which Lance's cleanup removes.
 */
@Internal
public final class LanceFragmentWriter extends AbstractStreamOperator<byte[]>
        implements OneInputStreamOperator<DescriptorRow, byte[]> {

    private static final long serialVersionUID = 1L;

    static final int MAX_BUFFERED_ROWS = 20_000;
    static final long MAX_BUFFERED_INLINE_BYTES = 64L * 1024 * 1024;

    private final LanceSettings settings;
    /** The base the rows' blob sets lie under: the dataset's blob base, or that of earlier committed rows. */
    private final String rowsBase;

    private transient List<DescriptorRow> rows;
    private transient long bufferedInlineBytes;
    private transient BlobReferences references;
    private transient BufferAllocator allocator;
    private transient Counter rowsWritten;
    /** Whether the dataset was seen with every column the rows are written with. */
    private transient boolean columnsChecked;

    public LanceFragmentWriter(LanceSettings settings, String rowsBase) {
        this.settings = settings;
        this.rowsBase = rowsBase;
    }

    @Override
    public void open() throws Exception {
        super.open();
        rows = new ArrayList<>();
        references = new BlobReferences(URI.create(rowsBase), new FlinkFileSystemStorage());
        allocator = new RootAllocator();
        rowsWritten = getMetricGroup().counter("lanceRowsWritten");
    }

    @Override
    public void processElement(StreamRecord<DescriptorRow> element) throws Exception {
        DescriptorRow row = element.getValue();
        rows.add(row);
        if (row.inlineData() != null) {
            bufferedInlineBytes += row.inlineData().length;
        }
        if (rows.size() >= MAX_BUFFERED_ROWS || bufferedInlineBytes >= MAX_BUFFERED_INLINE_BYTES) {
            writeFragments();
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        writeFragments();
    }

    @Override
    public void finish() throws Exception {
        writeFragments();
        super.finish();
    }

    @Override
    public void close() throws Exception {
        if (allocator != null) {
            allocator.close();
        }
        super.close();
    }

    private void writeFragments() throws Exception {
        if (rows.isEmpty()) {
            return;
        }
        if (!columnsChecked) {
            try (Dataset dataset = LanceDatasets.open(settings, allocator)) {
                LanceDatasets.requireColumns(dataset, settings.schema(), settings.datasetUri());
            }
            columnsChecked = true;
        }
        List<LanceBlob> blobs = new ArrayList<>(rows.size());
        for (DescriptorRow row : rows) {
            blobs.add(references.resolve(row));
        }
        references.forgetFooters();
        List<FragmentMetadata> fragments;
        try (VectorSchemaRoot batch = LanceRowSchema.batch(allocator, settings.columns(), rows, blobs)) {
            fragments = Fragment.write()
                    .datasetUri(settings.datasetUri())
                    .allocator(allocator)
                    .data(batch)
                    .writeParams(settings.writeParams())
                    .execute();
        }
        rowsWritten.inc(rows.size());
        rows.clear();
        bufferedInlineBytes = 0;
        output.collect(new StreamRecord<>(PendingCommitSerializer.serializeFragments(fragments)));
    }
}
