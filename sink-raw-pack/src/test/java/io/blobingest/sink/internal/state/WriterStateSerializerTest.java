package io.blobingest.sink.internal.state;

import static io.blobingest.sink.DescriptorRows.assertSameRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.sink.internal.sharing.ContentId;
import io.blobingest.sink.internal.sharing.StoredObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.Test;

class WriterStateSerializerTest {

    private static final String BLOB_SET_V1 = "blob-set-writer-state-v1.bin";
    private static final String BLOB_SET_V2 = "blob-set-writer-state-v2.bin";
    private static final String BLOB_SET_V3 = "blob-set-writer-state-v3.bin";
    private static final String SHARED_OBJECTS_V2 = "writer-state-shared-objects-v2.bin";

    private final RecoverableWriter local = BlobSetCommittableSerializerTest.localWriter();
    private final WriterStateSerializer serializer = new WriterStateSerializer(new BlobSetWriterStateSerializer(
            local.getCommitRecoverableSerializer(), local.getResumeRecoverableSerializer()));

    /** What the golden shared-objects file holds: two objects of one set, one of another. */
    static SharedObjectsState sharedObjects() {
        return new SharedObjectsState(
                "file:///data/blobs",
                List.of(
                        new StoredObject(
                                ContentId.of(70_000, sha256("a")),
                                "set-a",
                                BlobDescriptor.packed(RawPackFormat.entryReference(3), 70_000, 1),
                                0xFFFF_FFF0L),
                        new StoredObject(
                                ContentId.of(5_000_000, sha256("b")),
                                "set-a",
                                BlobDescriptor.dedicated(5_000_000, 0xFFFF_FFFFL),
                                7),
                        new StoredObject(
                                ContentId.of(65_537, sha256("c")),
                                "set-b",
                                BlobDescriptor.packed(RawPackFormat.entryReference(0), 65_537, 2),
                                0)));
    }

    @Test
    void version1BytesOfAnOpenBlobSetStillRead() throws IOException {
        WriterState state = serializer.deserialize(WriterStateSerializer.VERSION_1, GoldenBytes.read(BLOB_SET_V1));

        assertThat(state).isInstanceOfSatisfying(BlobSetWriterState.class, open -> {
            assertThat(open.blobSet()).isEqualTo(GoldenStates.BLOB_SET);
            assertSameRows(open.rows(), GoldenStates.rows());
        });
    }

    @Test
    void version2BytesOfAnOpenBlobSetTagZeroAndTheBlobSetVersion1LayoutStillRead() throws IOException {
        byte[] v2 = tagZero(GoldenBytes.read(BLOB_SET_V1));

        WriterState state = serializer.deserialize(WriterStateSerializer.VERSION_2, v2);

        assertThat(state).isInstanceOfSatisfying(BlobSetWriterState.class, open -> {
            assertThat(open.openPack().pack()).isEqualTo(GoldenStates.openPackState());
            assertSameRows(open.rows(), GoldenStates.rows());
        });
    }

    @Test
    void version3BytesOfAnOpenBlobSetTagZeroAndTheBlobSetVersion2LayoutStillRead() throws IOException {
        WriterState state =
                serializer.deserialize(WriterStateSerializer.VERSION_3, tagZero(GoldenBytes.read(BLOB_SET_V2)));

        assertThat(state).isInstanceOfSatisfying(BlobSetWriterState.class, open -> {
            assertThat(open.openPack().pack()).isEqualTo(GoldenStates.openPackStateWithHashes());
            assertSameRows(open.rows(), GoldenStates.rows());
        });
    }

    @Test
    void version4WritesAnOpenBlobSetAsTagZeroAndTheBlobSetVersion3Layout() throws IOException {
        byte[] v4 = tagZero(GoldenBytes.read(BLOB_SET_V3));
        WriterState state = serializer.deserialize(WriterStateSerializer.VERSION_4, v4);

        assertThat(serializer.getVersion()).isEqualTo(WriterStateSerializer.VERSION_4);
        assertThat(state)
                .isInstanceOfSatisfying(
                        BlobSetWriterState.class,
                        open -> assertSameRows(open.rows(), GoldenStates.rowsWithTimestamps()));
        assertThat(serializer.serialize(state)).isEqualTo(v4);
    }

    @Test
    void version2GoldenBytesOfSharedObjectsStillRead() throws IOException {
        WriterState state =
                serializer.deserialize(WriterStateSerializer.VERSION_2, GoldenBytes.read(SHARED_OBJECTS_V2));

        assertThat(state).isEqualTo(sharedObjects());
    }

    @Test
    void versions3And4KeepVersion2sSharedObjectsLayout() throws IOException {
        assertThat(serializer.deserialize(WriterStateSerializer.VERSION_3, GoldenBytes.read(SHARED_OBJECTS_V2)))
                .isEqualTo(sharedObjects());
        assertThat(serializer.deserialize(WriterStateSerializer.VERSION_4, GoldenBytes.read(SHARED_OBJECTS_V2)))
                .isEqualTo(sharedObjects());
    }

    @Test
    void currentVersionWritesTheGoldenSharedObjectsBytes() throws IOException {
        assertThat(serializer.serialize(sharedObjects())).isEqualTo(GoldenBytes.read(SHARED_OBJECTS_V2));
    }

    @Test
    void unknownVersionsAndPartsAreRejected() {
        assertThatThrownBy(() -> serializer.deserialize(5, new byte[] {0}))
                .isInstanceOf(IOException.class)
                .hasMessage("unknown writer state version: expected 1 to 4, found 5");
        assertThatThrownBy(() -> serializer.deserialize(WriterStateSerializer.VERSION_3, new byte[] {7}))
                .isInstanceOf(IOException.class)
                .hasMessage("unknown writer state part: expected tag 0 or 1, found 7");
        assertThatThrownBy(() -> serializer.deserialize(WriterStateSerializer.VERSION_3, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessage("writer state version 3 is empty: expected a tag byte");
    }

    private static byte[] tagZero(byte[] body) {
        byte[] tagged = new byte[body.length + 1];
        System.arraycopy(body, 0, tagged, 1, body.length);
        return tagged;
    }

    private static byte[] sha256(String text) {
        return ContentId.newDigest().digest(text.getBytes(StandardCharsets.UTF_8));
    }
}
