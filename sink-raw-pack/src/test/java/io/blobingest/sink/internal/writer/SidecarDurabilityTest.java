package io.blobingest.sink.internal.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flink's own local {@link RecoverableWriter}, its streams forced and closed by {@link SidecarDurability}. */
class SidecarDurabilityTest {

    @TempDir
    java.nio.file.Path dir;

    private final SidecarDurability background = SidecarDurability.inBackground("durability-test");

    @AfterEach
    void stopThread() {
        background.close();
    }

    @Test
    void dedicatedSidecarsClosedInTheBackgroundComeBackInTheOrderTheyWereWrittenAndCommitWhole() throws Exception {
        RecoverableWriter fs = FileSystem.getLocalFileSystem().createRecoverableWriter();
        int count = SidecarDurability.MAX_PENDING_CLOSES * 2 + 3;
        List<byte[]> written = new ArrayList<>();
        for (int id = 1; id <= count; id++) {
            byte[] bytes = randomBytes(id, 1000 + id);
            RecoverableFsDataOutputStream stream = fs.open(path(id));
            stream.write(bytes);
            background.closeForCommit(id, bytes.length, stream);
            written.add(bytes);
        }

        List<PendingSidecar> closed = background.awaitClosed();

        assertThat(closed).extracting(PendingSidecar::sidecarId).containsExactlyElementsOf(ids(count));
        assertThat(closed).allMatch(sidecar -> sidecar.kind() == SidecarKind.DEDICATED);
        for (PendingSidecar sidecar : closed) {
            fs.recoverForCommit(sidecar.recoverable()).commit();
            byte[] expected = written.get((int) sidecar.sidecarId() - 1);
            assertThat(sidecar.length()).isEqualTo(expected.length);
            assertThat(Files.readAllBytes(dir.resolve(sidecar.sidecarId() + ".blob")))
                    .isEqualTo(expected);
        }
        assertThat(background.awaitClosed()).as("each sidecar is returned once").isEmpty();
    }

    @Test
    void aPackForcedInTheBackgroundWhileItIsWrittenClosesWithEveryByte() throws Exception {
        RecoverableWriter fs = FileSystem.getLocalFileSystem().createRecoverableWriter();
        RecoverableFsDataOutputStream pack = fs.open(path(1));
        byte[] chunk = randomBytes(7, 1024 * 1024);
        int chunks = (int) (SidecarDurability.PACK_SYNC_BYTES * 3 / chunk.length) + 5;
        for (int i = 0; i < chunks; i++) {
            chunk[0] = (byte) i;
            pack.write(chunk);
            background.packWritten(pack, chunk.length);
        }

        background.awaitPackSync();
        fs.recoverForCommit(pack.closeForCommit().getRecoverable()).commit();

        byte[] file = Files.readAllBytes(dir.resolve("1.blob"));
        assertThat(file).hasSize(chunks * chunk.length);
        for (int i = 0; i < chunks; i++) {
            chunk[0] = (byte) i;
            assertThat(Arrays.copyOfRange(file, i * chunk.length, (i + 1) * chunk.length))
                    .as("chunk %d", i)
                    .isEqualTo(chunk);
        }
    }

    @Test
    void aBackgroundCloseThatFailsFailsTheWaitNamingTheSidecarAndReleasesTheOthers() throws Exception {
        RecoverableWriter fs = FileSystem.getLocalFileSystem().createRecoverableWriter();
        background.closeForCommit(1, 3, written(fs.open(path(1)), 3));
        background.closeForCommit(2, 3, written(new FailingCloseForCommit(fs.open(path(2))), 3));
        FailingCloseForCommit third = new FailingCloseForCommit(fs.open(path(3)));
        background.closeForCommit(3, 3, written(third, 3));

        assertThatThrownBy(background::awaitClosed)
                .isInstanceOf(IOException.class)
                .hasMessage("closing Dedicated sidecar 2 for commit failed: No space left on device")
                .satisfies(failure -> assertThat(failure.getSuppressed())
                        .extracting(Throwable::getMessage)
                        .containsExactly("closing Dedicated sidecar 3 for commit failed: No space left on device"));
        assertThat(third.closed).as("the stream whose close failed is released").isTrue();
        assertThat(background.awaitClosed())
                .as("nothing of the failed set is returned later")
                .isEmpty();
    }

    @Test
    void onTheTaskThreadACloseThatFailsFailsAtOnceAndReleasesItsStream() throws Exception {
        RecoverableWriter fs = FileSystem.getLocalFileSystem().createRecoverableWriter();
        SidecarDurability taskThread = SidecarDurability.onTaskThread();
        FailingCloseForCommit stream = new FailingCloseForCommit(fs.open(path(1)));

        assertThatThrownBy(() -> taskThread.closeForCommit(1, 3, written(stream, 3)))
                .isInstanceOf(IOException.class)
                .hasMessage("No space left on device");
        assertThat(stream.closed).isTrue();
        assertThat(taskThread.awaitClosed()).isEmpty();
    }

    private Path path(long sidecarId) {
        return new Path(dir.resolve(sidecarId + ".blob").toUri());
    }

    private static RecoverableFsDataOutputStream written(RecoverableFsDataOutputStream stream, int length)
            throws IOException {
        stream.write(randomBytes(length, length));
        return stream;
    }

    private static byte[] randomBytes(long seed, int length) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static List<Long> ids(int count) {
        List<Long> ids = new ArrayList<>();
        for (long id = 1; id <= count; id++) {
            ids.add(id);
        }
        return ids;
    }

    /** A real stream whose {@code closeForCommit} fails as on a full disk, before it closes anything. */
    private static final class FailingCloseForCommit extends ForwardingRecoverableStream {

        volatile boolean closed;

        FailingCloseForCommit(RecoverableFsDataOutputStream stream) {
            super(stream);
        }

        @Override
        public Committer closeForCommit() throws IOException {
            throw new IOException("No space left on device");
        }

        @Override
        public void close() throws IOException {
            closed = true;
            super.close();
        }
    }
}
