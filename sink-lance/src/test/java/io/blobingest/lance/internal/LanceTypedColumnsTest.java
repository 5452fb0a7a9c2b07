package io.blobingest.lance.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.placement.HeaderColumn;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.index.IndexOptions;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.BTreeIndexParams;
import org.lance.index.scalar.BitmapIndexParams;
import org.lance.index.scalar.ScalarIndexParams;

/**
 * The typed columns of {@code sink.lance.columns} with real Lance datasets: filled from the rows'
 * headers (missing: null), queryable with a filter on a mapped column and a timestamp range, served
 * by a scalar index as docs/lance.md shows, and added at the end of a dataset written before they
 * were configured.
 */
class LanceTypedColumnsTest {

    private static final List<HeaderColumn> COLUMNS =
            HeaderColumn.parseAll("robot_id:string=robot.id, seq:int64=frame.seq, captured_at:timestamp=captured-at,"
                    + " exposure:float64=exposure, keyframe:bool=keyframe, lane:int32=lane");
    private static final long T0 = 1_765_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void headersFillTheTypedColumnsWhichAFilterAndAScalarIndexServe() throws Exception {
        LanceSettings settings = settings(COLUMNS);
        List<DescriptorRow> rows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            rows.add(row(
                    i,
                    T0 + 1000L * i,
                    List.of(
                            header("robot.id", "r" + (i % 4)),
                            header("frame.seq", Integer.toString(i)),
                            header(
                                    "captured-at",
                                    java.time.Instant.ofEpochMilli(T0 + 500L * i)
                                            .toString()),
                            header("exposure", "0.5"),
                            header("keyframe", Boolean.toString(i % 10 == 0)),
                            header("lane", "3"))));
        }
        rows.add(row(40, T0 + 40_000, List.of(header("camera", "front"))));
        commit(settings, rows);

        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = LanceDatasets.open(settings, settings.datasetUri(), allocator)) {
            assertThat(dataset.getSchema().getFields())
                    .extracting(Field::getName)
                    .endsWith("timestamp", "robot_id", "seq", "captured_at", "exposure", "keyframe", "lane");
            createIndex(
                    dataset,
                    "robot_id",
                    IndexType.BITMAP,
                    BitmapIndexParams.builder().build());
            createIndex(
                    dataset,
                    "timestamp",
                    IndexType.BTREE,
                    BTreeIndexParams.builder().build());

            // robot r3 between the 10th and the 30th second: inputs 11, 15, 19, 23, 27
            assertThat(seqs(
                            dataset,
                            "robot_id = 'r3' AND \"timestamp\" BETWEEN to_timestamp_millis(" + (T0 + 10_000)
                                    + ") AND to_timestamp_millis(" + (T0 + 30_000) + ")"))
                    .containsExactly(11L, 15L, 19L, 23L, 27L);
            assertThat(dataset.countRows("keyframe AND lane = 3 AND exposure > 0.25"))
                    .isEqualTo(4);
            assertThat(dataset.countRows(
                            "captured_at >= TIMESTAMP '" + java.time.Instant.ofEpochMilli(T0 + 19_500) + "'"))
                    .isEqualTo(1);
            assertThat(dataset.countRows("robot_id IS NULL AND seq IS NULL"))
                    .as("the row without the headers")
                    .isEqualTo(1);
        }
    }

    @Test
    void aColumnAddedToTheSettingIsAddedAtTheDatasetsEnd() throws Exception {
        commit(settings(COLUMNS.subList(0, 1)), List.of(row(0, T0, List.of(header("robot.id", "r0")))));
        LanceSettings more = settings(COLUMNS.subList(0, 2));

        commit(more, List.of(row(1, T0, List.of(header("robot.id", "r1"), header("frame.seq", "1")))));

        try (BufferAllocator allocator = new RootAllocator();
                Dataset dataset = LanceDatasets.open(more, more.datasetUri(), allocator)) {
            assertThat(dataset.getSchema().getFields())
                    .extracting(Field::getName)
                    .endsWith("robot_id", "seq");
            assertThat(dataset.countRows("seq IS NULL")).isEqualTo(1);
            assertThat(dataset.countRows("seq = 1 AND robot_id = 'r1'")).isEqualTo(1);
        }
    }

    @Test
    void aTypedColumnCannotTakeTheNameOfOneOfTheDatasetsOwn() {
        assertThatThrownBy(() -> settings(HeaderColumn.parseAll("timestamp:timestamp=captured-at")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("column timestamp is one of the dataset's own columns [key, ");
    }

    private LanceSettings settings(List<HeaderColumn> columns) {
        return new LanceSettings(
                dir.resolve("robots.lance").toString(),
                dir.resolve("base").toUri().toString(),
                Map.of(),
                columns);
    }

    /** The rows through the real fragment writer and committer, one checkpoint. */
    private static void commit(LanceSettings settings, List<DescriptorRow> rows) throws Exception {
        try (OneInputStreamOperatorTestHarness<byte[], Void> committer =
                new OneInputStreamOperatorTestHarness<>(new LanceCommitter(settings))) {
            committer.initializeEmptyState();
            committer.open();
            try (OneInputStreamOperatorTestHarness<DescriptorRow, byte[]> writer =
                    new OneInputStreamOperatorTestHarness<>(new LanceFragmentWriter(settings, settings.blobBase()))) {
                writer.open();
                for (DescriptorRow row : rows) {
                    writer.processElement(new StreamRecord<>(row));
                }
                writer.prepareSnapshotPreBarrier(1);
                for (byte[] fragments : writer.extractOutputValues()) {
                    committer.processElement(new StreamRecord<>(fragments));
                }
            }
            committer.snapshot(1, 1);
            committer.notifyOfCompletedCheckpoint(1);
        }
    }

    /** As docs/lance.md shows it. */
    private static void createIndex(Dataset dataset, String column, IndexType type, ScalarIndexParams params) {
        dataset.createIndex(IndexOptions.builder(
                        List.of(column),
                        type,
                        IndexParams.builder().setScalarIndexParams(params).build())
                .build());
    }

    private static List<Long> seqs(Dataset dataset, String filter) throws Exception {
        List<Long> seqs = new ArrayList<>();
        try (ArrowReader reader = dataset.sql("SELECT seq FROM dataset WHERE " + filter + " ORDER BY seq")
                .intoBatchRecords()) {
            while (reader.loadNextBatch()) {
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                BigIntVector seq = (BigIntVector) root.getVector("seq");
                for (int i = 0; i < root.getRowCount(); i++) {
                    seqs.add(seq.get(i));
                }
            }
        }
        return seqs;
    }

    private static DescriptorRow row(long offset, long timestamp, List<Attribute> headers) {
        byte[] bytes = ("frame " + offset).getBytes(StandardCharsets.UTF_8);
        return new DescriptorRow(
                null, "robots", 0, offset, timestamp, BlobDescriptor.inline(bytes.length), null, bytes, null, headers);
    }

    private static Attribute header(String name, String value) {
        return new Attribute(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
