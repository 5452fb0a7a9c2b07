package io.blobingest.sink.internal.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.sink.internal.committer.BlobSetCommittable;
import io.blobingest.sink.internal.writer.PendingSidecar;
import io.blobingest.sink.internal.writer.SidecarKind;
import java.io.IOException;
import java.util.Arrays;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.fs.RecoverableWriter.CommitRecoverable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlobSetCommittableSerializerTest {

    private static final String GOLDEN_V1 = "blob-set-committable-v1.bin";
    private static final String GOLDEN_V2 = "blob-set-committable-v2.bin";

    private final RecoverableWriter local = localWriter();
    private final BlobSetCommittableSerializer serializer =
            new BlobSetCommittableSerializer(local.getCommitRecoverableSerializer());

    @Test
    void version1GoldenBytesStillRead() throws IOException {
        BlobSetCommittable committable =
                serializer.deserialize(BlobSetCommittableSerializer.VERSION_1, GoldenBytes.read(GOLDEN_V1));

        assertThat(committable.basePath()).isEqualTo(GoldenStates.BASE);
        assertThat(committable.blobSet()).isEqualTo(GoldenStates.BLOB_SET);
        assertThat(committable.rowCount()).isEqualTo(GoldenStates.rows().size());
        assertThat(committable.sidecars())
                .extracting(PendingSidecar::sidecarId, PendingSidecar::kind, PendingSidecar::length)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                GoldenStates.PACK_ID, SidecarKind.RAW_PACK, GoldenStates.PACK_LENGTH),
                        org.assertj.core.groups.Tuple.tuple(
                                GoldenStates.DEDICATED_ID, SidecarKind.DEDICATED, GoldenStates.DEDICATED_LENGTH));
        assertThat(committable.sidecars().get(0).recoverable().toString())
                .contains(GoldenStates.sidecarPath(GoldenStates.PACK_ID));
        assertThat(committable.sidecars().get(1).recoverable().toString())
                .contains(GoldenStates.sidecarPath(GoldenStates.DEDICATED_ID));
        assertThat(committable.manifestLength()).isEqualTo(GoldenStates.MANIFEST_LENGTH);
        assertThat(committable.manifest().toString()).contains(GoldenStates.manifestPath());
        assertThat(committable.manifestPath().toString()).isEqualTo("file:" + GoldenStates.manifestPath());
        assertThat(committable.sharingIndexEntries())
                .as("version 1 knows no sharing index")
                .isEqualTo(BlobSetCommittable.NO_SHARING_INDEX);
    }

    @Test
    void version2GoldenBytesStillReadWithTheSharingIndexSize() throws IOException {
        BlobSetCommittable committable =
                serializer.deserialize(BlobSetCommittableSerializer.VERSION_2, GoldenBytes.read(GOLDEN_V2));

        BlobSetCommittable version1 =
                serializer.deserialize(BlobSetCommittableSerializer.VERSION_1, GoldenBytes.read(GOLDEN_V1));
        assertThat(committable.sharingIndexEntries()).isEqualTo(GoldenStates.SHARING_INDEX_ENTRIES);
        assertThat(serializer.serialize(committable.withSharingIndexEntries(BlobSetCommittable.NO_SHARING_INDEX)))
                .as("every other field as version 1 has it")
                .isEqualTo(serializer.serialize(version1));
    }

    @Test
    void currentVersionWritesTheVersion2GoldenBytes() throws IOException {
        byte[] golden = GoldenBytes.read(GOLDEN_V2);
        assertThat(serializer.getVersion()).isEqualTo(BlobSetCommittableSerializer.VERSION_2);
        assertThat(serializer.serialize(serializer.deserialize(BlobSetCommittableSerializer.VERSION_2, golden)))
                .isEqualTo(golden);
    }

    @Test
    void currentVersionWritesAVersion1CommittableAsOneWithoutSharingIndex() throws IOException {
        byte[] version1 = GoldenBytes.read(GOLDEN_V1);

        byte[] written = serializer.serialize(serializer.deserialize(BlobSetCommittableSerializer.VERSION_1, version1));

        assertThat(serializer
                        .deserialize(BlobSetCommittableSerializer.VERSION_2, written)
                        .sharingIndexEntries())
                .isEqualTo(BlobSetCommittable.NO_SHARING_INDEX);
        assertThat(written).hasSize(version1.length + Long.BYTES);
    }

    @Test
    void freshCommittableRoundTrips(@TempDir java.nio.file.Path dir) throws IOException {
        CommitRecoverable pack = closedFile(dir.resolve("a"));
        CommitRecoverable dedicated = closedFile(dir.resolve("b"));
        CommitRecoverable manifest = closedFile(dir.resolve("c"));
        BlobSetCommittable committable = GoldenStates.committable(pack, dedicated, manifest);

        BlobSetCommittable read = serializer.deserialize(serializer.getVersion(), serializer.serialize(committable));

        assertThat(read.blobSet()).isEqualTo(committable.blobSet());
        assertThat(read.sidecars())
                .extracting(s -> s.recoverable().toString())
                .containsExactly(pack.toString(), dedicated.toString());
        assertThat(read.manifest().toString()).isEqualTo(manifest.toString());
        assertThat(read.sharingIndexEntries()).isEqualTo(GoldenStates.SHARING_INDEX_ENTRIES);
    }

    @Test
    void unknownVersionIsRejected() {
        assertThatThrownBy(() -> serializer.deserialize(3, GoldenBytes.read(GOLDEN_V2)))
                .isInstanceOf(IOException.class)
                .hasMessage("unknown blob set committable version: expected 1 or 2, found 3");
    }

    @Test
    void trailingBytesAreRejected() {
        byte[] golden = GoldenBytes.read(GOLDEN_V2);
        byte[] longer = Arrays.copyOf(golden, golden.length + 3);
        assertThatThrownBy(() -> serializer.deserialize(BlobSetCommittableSerializer.VERSION_2, longer))
                .hasMessageContaining("has 3 trailing bytes after its version 2 fields");
        assertThatThrownBy(() -> serializer.deserialize(BlobSetCommittableSerializer.VERSION_1, golden))
                .as("version 2 bytes read as version 1")
                .hasMessageContaining("has 8 trailing bytes after its version 1 fields");
    }

    @Test
    void version1BytesReadAsVersion2AreRejected() {
        assertThatThrownBy(() ->
                        serializer.deserialize(BlobSetCommittableSerializer.VERSION_2, GoldenBytes.read(GOLDEN_V1)))
                .isInstanceOf(IOException.class);
    }

    private CommitRecoverable closedFile(java.nio.file.Path file) throws IOException {
        RecoverableFsDataOutputStream out = local.open(new Path(file.toUri()));
        out.write(new byte[] {1, 2, 3});
        return out.closeForCommit().getRecoverable();
    }

    static RecoverableWriter localWriter() {
        try {
            return FileSystem.getLocalFileSystem().createRecoverableWriter();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
