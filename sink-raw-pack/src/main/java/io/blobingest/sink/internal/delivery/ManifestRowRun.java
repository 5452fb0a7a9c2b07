package io.blobingest.sink.internal.delivery;

import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.internal.state.CodecV1;
import io.blobingest.sink.internal.state.PendingDeliverySerializer;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import io.blobingest.sink.manifest.ManifestRow;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Rows {@code firstRow} to {@code firstRow + rowCount - 1} of a descriptor manifest, sent one after
 * the other: enough to read them again and send them once more.
 *
 * @param manifest the manifest's location, as a Flink path
 */
record ManifestRowRun(String manifest, long firstRow, long rowCount) {

    /** Its bytes in a {@link PendingDelivery}: manifest, first row, row count. */
    static final PendingDeliverySerializer.UnitCodec<ManifestRowRun> CODEC =
            new PendingDeliverySerializer.UnitCodec<>() {
                @Override
                public void write(DataOutputView out, ManifestRowRun run) throws IOException {
                    CodecV1.writeString(out, run.manifest());
                    out.writeLong(run.firstRow());
                    out.writeLong(run.rowCount());
                }

                @Override
                public ManifestRowRun read(DataInputView in) throws IOException {
                    return new ManifestRowRun(CodecV1.readString(in), in.readLong(), in.readLong());
                }
            };

    ManifestRowRun {
        Objects.requireNonNull(manifest, "manifest");
        if (firstRow < 0 || rowCount < 1) {
            throw new IllegalArgumentException(
                    "a run of " + manifest + " starts at a row >= 0 and holds a row or more, found row " + firstRow
                            + " and " + rowCount + " rows");
        }
    }

    static ManifestRowRun of(ManifestRow row) {
        return new ManifestRowRun(row.manifest(), row.index(), 1);
    }

    /** This run and {@code next} as one run, if {@code next} starts right after it in the same manifest. */
    Optional<ManifestRowRun> followedBy(ManifestRowRun next) {
        if (!manifest.equals(next.manifest) || firstRow + rowCount != next.firstRow) {
            return Optional.empty();
        }
        return Optional.of(new ManifestRowRun(manifest, firstRow, rowCount + next.rowCount));
    }

    /**
     * Reads the run's rows again, in order, while {@code more} returns true.
     *
     * @throws IOException if the manifest no longer holds them, naming it
     */
    void readRows(RowAction more) throws IOException {
        try (DescriptorManifestReader reader = DescriptorManifestReader.open(new Path(manifest))) {
            for (long index = 0; index < firstRow + rowCount; index++) {
                DescriptorRow row = reader.nextRow();
                if (row == null) {
                    throw new IOException(manifest + " has " + index + " rows, rows " + firstRow + " to "
                            + (firstRow + rowCount - 1) + " were sent from it");
                }
                if (index >= firstRow && !more.next(row)) {
                    return;
                }
            }
        }
    }

    /** What is done with each row read again. */
    @FunctionalInterface
    interface RowAction {
        /** @return whether to go on with the next row */
        boolean next(DescriptorRow row) throws IOException;
    }

    @Override
    public String toString() {
        return manifest + " rows " + firstRow + "-" + (firstRow + rowCount - 1);
    }
}
