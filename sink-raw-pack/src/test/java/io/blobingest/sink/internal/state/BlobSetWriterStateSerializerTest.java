package io.blobingest.sink.internal.state;

import static io.blobingest.sink.DescriptorRows.assertSameRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.sink.internal.writer.PendingSidecar;
import io.blobingest.sink.internal.writer.SidecarKind;
import java.io.IOException;
import java.util.Arrays;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlobSetWriterStateSerializerTest {

    private static final String GOLDEN_V1 = "blob-set-writer-state-v1.bin";
    private static final String GOLDEN_V2 = "blob-set-writer-state-v2.bin";
    private static final String GOLDEN_V3 = "blob-set-writer-state-v3.bin";

    private final RecoverableWriter local = BlobSetCommittableSerializerTest.localWriter();
    private final BlobSetWriterStateSerializer serializer = new BlobSetWriterStateSerializer(
            local.getCommitRecoverableSerializer(), local.getResumeRecoverableSerializer());

    @Test
    void version1GoldenBytesStillRead() throws IOException {
        BlobSetWriterState state =
                serializer.deserialize(BlobSetWriterStateSerializer.VERSION_1, GoldenBytes.read(GOLDEN_V1));

        assertThat(state.blobSet()).isEqualTo(GoldenStates.BLOB_SET);
        assertThat(state.createdAtMillis()).isEqualTo(GoldenStates.CREATED_AT);
        assertThat(state.nextSidecarId()).isEqualTo(GoldenStates.OPEN_PACK_ID + 1);
        assertThat(state.finishedSidecars())
                .extracting(PendingSidecar::sidecarId, PendingSidecar::kind, PendingSidecar::length)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                GoldenStates.PACK_ID, SidecarKind.RAW_PACK, GoldenStates.PACK_LENGTH),
                        org.assertj.core.groups.Tuple.tuple(
                                GoldenStates.DEDICATED_ID, SidecarKind.DEDICATED, GoldenStates.DEDICATED_LENGTH));
        assertThat(state.finishedSidecars().get(1).recoverable().toString())
                .contains(GoldenStates.sidecarPath(GoldenStates.DEDICATED_ID));
        assertThat(state.openPack().sidecarId()).isEqualTo(GoldenStates.OPEN_PACK_ID);
        assertThat(state.openPack().pack()).isEqualTo(GoldenStates.openPackState());
        assertThat(state.openPack().pack().recordsEntrySha256())
                .as("version 1 knows no entry hashes")
                .isFalse();
        assertThat(state.openPack().resumable().toString())
                .contains(GoldenStates.sidecarPath(GoldenStates.OPEN_PACK_ID))
                .contains("46");
        assertSameRows(state.rows(), GoldenStates.rows());
    }

    @Test
    void version2GoldenBytesStillReadWithTheOpenPacksEntryHashes() throws IOException {
        BlobSetWriterState state =
                serializer.deserialize(BlobSetWriterStateSerializer.VERSION_2, GoldenBytes.read(GOLDEN_V2));

        BlobSetWriterState version1 =
                serializer.deserialize(BlobSetWriterStateSerializer.VERSION_1, GoldenBytes.read(GOLDEN_V1));
        assertThat(state.openPack().pack()).isEqualTo(GoldenStates.openPackStateWithHashes());
        assertThat(state.openPack().pack().entrySha256(0)).isPresent();
        assertThat(state.openPack().pack().entrySha256(1)).isEmpty();
        assertThat(state.openPack().resumable().toString())
                .isEqualTo(version1.openPack().resumable().toString());
        assertThat(state.blobSet()).isEqualTo(GoldenStates.BLOB_SET);
        assertThat(state.nextSidecarId()).isEqualTo(GoldenStates.OPEN_PACK_ID + 1);
        assertThat(state.finishedSidecars()).hasSize(2);
        assertSameRows(state.rows(), GoldenStates.rows());
    }

    @Test
    void version3GoldenBytesStillReadWithTheRowsSourceTimestamps() throws IOException {
        BlobSetWriterState state =
                serializer.deserialize(BlobSetWriterStateSerializer.VERSION_3, GoldenBytes.read(GOLDEN_V3));

        assertSameRows(state.rows(), GoldenStates.rowsWithTimestamps());
        assertThat(state.openPack().pack()).isEqualTo(GoldenStates.openPackStateWithHashes());
        assertThat(state.finishedSidecars()).hasSize(2);
    }

    @Test
    void currentVersionWritesTheVersion3GoldenBytes() throws IOException {
        byte[] golden = GoldenBytes.read(GOLDEN_V3);
        assertThat(serializer.getVersion()).isEqualTo(BlobSetWriterStateSerializer.VERSION_3);
        assertThat(serializer.serialize(serializer.deserialize(BlobSetWriterStateSerializer.VERSION_3, golden)))
                .isEqualTo(golden);
    }

    @Test
    void currentVersionWritesAVersion1StateAsThePackWithoutHashesAndRowsWithoutTimestamps() throws IOException {
        byte[] version1 = GoldenBytes.read(GOLDEN_V1);
        BlobSetWriterState state = serializer.deserialize(BlobSetWriterStateSerializer.VERSION_1, version1);

        byte[] written = serializer.serialize(state);

        BlobSetWriterState read = serializer.deserialize(BlobSetWriterStateSerializer.VERSION_3, written);
        assertThat(read.openPack().pack()).isEqualTo(GoldenStates.openPackState());
        assertSameRows(read.rows(), GoldenStates.rows());
        // the pack state's "no hashes" flag and each row's "no timestamp" flag
        assertThat(written).hasSize(version1.length + 1 + GoldenStates.rows().size());
    }

    @Test
    void stateWithoutOpenPackRoundTrips(@TempDir java.nio.file.Path dir) throws IOException {
        RecoverableFsDataOutputStream out = local.open(new Path(dir.resolve("d").toUri()));
        out.write(new byte[] {9});
        BlobSetWriterState state = new BlobSetWriterState(
                "s",
                5,
                2,
                java.util.List.of(new PendingSidecar(
                        1, SidecarKind.DEDICATED, 1, out.closeForCommit().getRecoverable())),
                null,
                GoldenStates.rows().subList(0, 1));

        BlobSetWriterState read = serializer.deserialize(serializer.getVersion(), serializer.serialize(state));

        assertThat(read.openPack()).isNull();
        assertThat(read.finishedSidecars()).hasSize(1);
        assertSameRows(read.rows(), state.rows());
    }

    @Test
    void unknownVersionIsRejected() {
        assertThatThrownBy(() -> serializer.deserialize(0, GoldenBytes.read(GOLDEN_V1)))
                .isInstanceOf(IOException.class)
                .hasMessage("unknown blob set writer state version: expected 1, 2 or 3, found 0");
    }

    @Test
    void truncatedBytesAreRejected() {
        byte[] golden = GoldenBytes.read(GOLDEN_V1);
        assertThatThrownBy(() -> serializer.deserialize(
                        BlobSetWriterStateSerializer.VERSION_1, Arrays.copyOf(golden, golden.length - 5)))
                .isInstanceOf(IOException.class);
        byte[] golden2 = GoldenBytes.read(GOLDEN_V2);
        assertThatThrownBy(() -> serializer.deserialize(
                        BlobSetWriterStateSerializer.VERSION_2, Arrays.copyOf(golden2, golden2.length - 5)))
                .isInstanceOf(IOException.class);
        byte[] golden3 = GoldenBytes.read(GOLDEN_V3);
        assertThatThrownBy(() -> serializer.deserialize(
                        BlobSetWriterStateSerializer.VERSION_3, Arrays.copyOf(golden3, golden3.length - 5)))
                .isInstanceOf(IOException.class);
    }

    @Test
    void version1BytesReadAsVersion2AreRejected() {
        assertThatThrownBy(() ->
                        serializer.deserialize(BlobSetWriterStateSerializer.VERSION_2, GoldenBytes.read(GOLDEN_V1)))
                .isInstanceOf(IOException.class);
    }
}
