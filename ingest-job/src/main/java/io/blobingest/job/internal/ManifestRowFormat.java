package io.blobingest.job.internal;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import io.blobingest.sink.manifest.ManifestRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.IteratorResultIterator;
import org.apache.flink.core.fs.Path;

/**
 * Reads a descriptor manifest (spec.md section 5) for Flink's {@code FileSource}: one split per
 * file, the rows in file order. An Arrow IPC file is read from its footer, so there is no byte
 * offset to resume at: the checkpointed position is the number of rows already emitted, and a
 * restored reader skips that many. Each row comes with its manifest and index ({@link
 * ManifestRow}), so that what is downstream can read it again. A file that is not a readable
 * manifest fails the job with an error naming it. The rows' Flink type is the caller's (the job
 * declares its records' types in one place).
 */
@Internal
public final class ManifestRowFormat implements BulkFormat<ManifestRow, FileSourceSplit> {

    private static final long serialVersionUID = 1L;

    /** Rows per batch handed to the source: small, rows may carry up to an Inline blob each. */
    private static final int ROWS_PER_BATCH = 64;

    private final TypeInformation<ManifestRow> rowType;

    /** @param rowType the Flink type of the rows, as the job's operators declare it */
    public ManifestRowFormat(TypeInformation<ManifestRow> rowType) {
        this.rowType = rowType;
    }

    @Override
    public BulkFormat.Reader<ManifestRow> createReader(Configuration config, FileSourceSplit split) throws IOException {
        return new Reader(split.path(), DescriptorManifestReader.open(split.path()), 0);
    }

    @Override
    public BulkFormat.Reader<ManifestRow> restoreReader(Configuration config, FileSourceSplit split)
            throws IOException {
        long rowsRead = split.getReaderPosition()
                .map(CheckpointedPosition::getRecordsAfterOffset)
                .orElse(0L);
        DescriptorManifestReader manifest = DescriptorManifestReader.open(split.path());
        try {
            for (long skipped = 0; skipped < rowsRead; skipped++) {
                if (manifest.nextRow() == null) {
                    throw new IOException(split.path() + ": the checkpoint resumes after row " + rowsRead
                            + ", but the manifest has only " + skipped + " rows");
                }
            }
        } catch (IOException | RuntimeException e) {
            try {
                manifest.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return new Reader(split.path(), manifest, rowsRead);
    }

    @Override
    public boolean isSplittable() {
        return false;
    }

    @Override
    public TypeInformation<ManifestRow> getProducedType() {
        return rowType;
    }

    /** The rows of one manifest, each with the count of rows up to and including it as its position. */
    private static final class Reader implements BulkFormat.Reader<ManifestRow> {
        private final String location;
        private final DescriptorManifestReader manifest;
        private long rowsRead;

        Reader(Path location, DescriptorManifestReader manifest, long rowsRead) {
            this.location = location.toString();
            this.manifest = manifest;
            this.rowsRead = rowsRead;
        }

        @Override
        public BulkFormat.RecordIterator<ManifestRow> readBatch() throws IOException {
            List<ManifestRow> rows = new ArrayList<>(ROWS_PER_BATCH);
            DescriptorRow row;
            while (rows.size() < ROWS_PER_BATCH && (row = manifest.nextRow()) != null) {
                rows.add(new ManifestRow(location, rowsRead + rows.size(), row));
            }
            if (rows.isEmpty()) {
                return null;
            }
            BulkFormat.RecordIterator<ManifestRow> batch =
                    new IteratorResultIterator<>(rows.iterator(), CheckpointedPosition.NO_OFFSET, rowsRead);
            rowsRead += rows.size();
            return batch;
        }

        @Override
        public void close() throws IOException {
            manifest.close();
        }
    }
}
