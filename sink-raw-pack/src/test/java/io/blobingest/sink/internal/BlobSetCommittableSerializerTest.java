package io.blobingest.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    }

    @Test
    void currentVersionStillWritesVersion1Bytes() throws IOException {
        byte[] golden = GoldenBytes.read(GOLDEN_V1);
        assertThat(serializer.getVersion()).isEqualTo(BlobSetCommittableSerializer.VERSION_1);
        assertThat(serializer.serialize(serializer.deserialize(BlobSetCommittableSerializer.VERSION_1, golden)))
                .isEqualTo(golden);
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
    }

    @Test
    void unknownVersionIsRejected() {
        assertThatThrownBy(() -> serializer.deserialize(2, GoldenBytes.read(GOLDEN_V1)))
                .isInstanceOf(IOException.class)
                .hasMessage("unknown blob set committable version: expected 1, found 2");
    }

    @Test
    void trailingBytesAreRejected() {
        byte[] golden = GoldenBytes.read(GOLDEN_V1);
        byte[] longer = Arrays.copyOf(golden, golden.length + 3);
        assertThatThrownBy(() -> serializer.deserialize(BlobSetCommittableSerializer.VERSION_1, longer))
                .hasMessageContaining("has 3 trailing bytes");
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
