package io.blobingest.lance.internal;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.storage.FlinkFileSystemStorage;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
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
 * <p>Rows go to their topic's dataset when {@code sink.lance.dataset-uri} names {@code {topic}}.
 * Before its first fragment for a dataset it creates the dataset or adds the columns it lacks
 * ({@link LanceDatasets#prepare}): a fragment with a column the dataset lacks would lose it.
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

    /** Per dataset, the rows not yet written. */
    private transient Map<String, List<DescriptorRow>> rows;

    private transient int bufferedRows;
    private transient long bufferedInlineBytes;
    private transient BlobReferences references;
    private transient BufferAllocator allocator;
    private transient Counter rowsWritten;
    /** The datasets made ready for this writer's fragments ({@link LanceDatasets#prepare}). */
    private transient Set<String> prepared;

    public LanceFragmentWriter(LanceSettings settings, String rowsBase) {
        this.settings = settings;
        this.rowsBase = rowsBase;
    }

    @Override
    public void open() throws Exception {
        super.open();
        rows = new LinkedHashMap<>();
        prepared = new HashSet<>();
        references = new BlobReferences(URI.create(rowsBase), new FlinkFileSystemStorage());
        allocator = new RootAllocator();
        rowsWritten = getMetricGroup().counter("lanceRowsWritten");
    }

    @Override
    public void processElement(StreamRecord<DescriptorRow> element) throws Exception {
        DescriptorRow row = element.getValue();
        rows.computeIfAbsent(settings.datasetUri(row.sourceTopic()), uri -> new ArrayList<>())
                .add(row);
        bufferedRows++;
        if (row.inlineData() != null) {
            bufferedInlineBytes += row.inlineData().length;
        }
        if (bufferedRows >= MAX_BUFFERED_ROWS || bufferedInlineBytes >= MAX_BUFFERED_INLINE_BYTES) {
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
        for (Map.Entry<String, List<DescriptorRow>> dataset : rows.entrySet()) {
            writeFragments(dataset.getKey(), dataset.getValue());
        }
        rowsWritten.inc(bufferedRows);
        rows.clear();
        bufferedRows = 0;
        bufferedInlineBytes = 0;
    }

    private void writeFragments(String datasetUri, List<DescriptorRow> datasetRows) throws Exception {
        if (!prepared.contains(datasetUri)) {
            LanceDatasets.prepare(settings, datasetUri, allocator);
            prepared.add(datasetUri);
        }
        List<LanceBlob> blobs = new ArrayList<>(datasetRows.size());
        for (DescriptorRow row : datasetRows) {
            blobs.add(references.resolve(row));
        }
        references.forgetFooters();
        List<FragmentMetadata> fragments;
        try (VectorSchemaRoot batch = LanceRowSchema.batch(allocator, settings.columns(), datasetRows, blobs)) {
            fragments = Fragment.write()
                    .datasetUri(datasetUri)
                    .allocator(allocator)
                    .data(batch)
                    .writeParams(settings.writeParams())
                    .execute();
        }
        output.collect(new StreamRecord<>(PendingCommitSerializer.serializeFragments(datasetUri, fragments)));
    }
}
