package io.blobingest.job.internal;

import static io.blobingest.sink.DescriptorRows.assertSameRows;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.sink.manifest.DescriptorManifestWriter;
import io.blobingest.sink.manifest.ManifestFormatException;
import io.blobingest.sink.manifest.ManifestRow;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestRowFormatTest {

    /** More rows than one Arrow record batch of the writer holds. */
    private static final int ROWS = 5_000;

    private final ManifestRowFormat format = new ManifestRowFormat(TypeInformation.of(ManifestRow.class));

    @TempDir
    Path dir;

    @Test
    void readsEveryRowInFileOrderEachPositionedAfterItself() throws IOException {
        List<DescriptorRow> rows = rows();
        FileSourceSplit split = split(write(rows), null);

        List<RecordAndPosition<ManifestRow>> read = readAll(format.createReader(new Configuration(), split));

        assertSameRows(read.stream().map(record -> record.getRecord().row()).toList(), rows);
        for (int i = 0; i < read.size(); i++) {
            assertThat(read.get(i).getRecord().manifest())
                    .isEqualTo(split.path().toString());
            assertThat(read.get(i).getRecord().index()).as("index of row %d", i).isEqualTo(i);
            assertThat(read.get(i).getOffset()).isEqualTo(CheckpointedPosition.NO_OFFSET);
            assertThat(read.get(i).getRecordSkipCount())
                    .as("rows read up to row %d", i)
                    .isEqualTo(i + 1);
        }
    }

    @Test
    void aRestoredReaderGoesOnAfterTheRowsAlreadyRead() throws IOException {
        List<DescriptorRow> rows = rows();
        int alreadyRead = 4_100;
        FileSourceSplit split =
                split(write(rows), new CheckpointedPosition(CheckpointedPosition.NO_OFFSET, alreadyRead));

        List<RecordAndPosition<ManifestRow>> read = readAll(format.restoreReader(new Configuration(), split));

        assertSameRows(read.stream().map(record -> record.getRecord().row()).toList(), rows.subList(alreadyRead, ROWS));
        assertThat(read.get(0).getRecordSkipCount()).isEqualTo(alreadyRead + 1);
        assertThat(read.get(0).getRecord().index()).isEqualTo(alreadyRead);
    }

    @Test
    void aPositionBeyondTheLastRowIsAnErrorNamingTheFile() throws IOException {
        Path manifest = write(rows().subList(0, 3));
        FileSourceSplit split = split(manifest, new CheckpointedPosition(CheckpointedPosition.NO_OFFSET, 4));

        assertThatThrownBy(() -> format.restoreReader(new Configuration(), split))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(manifest.getFileName().toString())
                .hasMessageContaining("resumes after row 4, but the manifest has only 3 rows");
    }

    @Test
    void aFileThatIsNoManifestIsAnErrorNamingIt() throws IOException {
        Path file = Files.write(dir.resolve("x.arrow"), "not arrow".getBytes(UTF_8));

        assertThatThrownBy(() -> format.createReader(new Configuration(), split(file, null)))
                .isInstanceOf(ManifestFormatException.class)
                .hasMessageContaining(file.getFileName().toString());
    }

    private static List<DescriptorRow> rows() {
        List<DescriptorRow> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(new DescriptorRow(
                    ("k" + i).getBytes(UTF_8),
                    "blobs",
                    i % 3,
                    i,
                    null,
                    BlobDescriptor.external("file:///data/" + i + ".bin", 0, 0),
                    null,
                    null,
                    null,
                    List.of(new Attribute("seq", Integer.toString(i).getBytes(UTF_8)))));
        }
        return rows;
    }

    private Path write(List<DescriptorRow> rows) throws IOException {
        Path manifest = dir.resolve("set-1.arrow");
        try (OutputStream out = Files.newOutputStream(manifest)) {
            DescriptorManifestWriter.write("set-1", rows, out);
        }
        return manifest;
    }

    private static FileSourceSplit split(Path file, CheckpointedPosition position) throws IOException {
        long length = Files.size(file);
        return new FileSourceSplit(
                "0", new org.apache.flink.core.fs.Path(file.toUri()), 0, length, 0, length, new String[0], position);
    }

    private static List<RecordAndPosition<ManifestRow>> readAll(BulkFormat.Reader<ManifestRow> reader)
            throws IOException {
        List<RecordAndPosition<ManifestRow>> read = new ArrayList<>();
        try (reader) {
            for (BulkFormat.RecordIterator<ManifestRow> batch = reader.readBatch();
                    batch != null;
                    batch = reader.readBatch()) {
                for (RecordAndPosition<ManifestRow> record = batch.next(); record != null; record = batch.next()) {
                    // The iterator reuses its position object: keep a copy.
                    read.add(new RecordAndPosition<>(
                            record.getRecord(), record.getOffset(), record.getRecordSkipCount()));
                }
                batch.releaseBatch();
            }
        }
        return read;
    }
}
