package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.TestPacks.METADATA;
import static io.blobingest.objectlayer.pack.TestPacks.ascii;
import static io.blobingest.objectlayer.pack.TestPacks.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RawPackWriterTest {

    /** Where a test's writer writes, unless the test needs a stream of its own. */
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @Test
    void newPackStartsWithTheHeader() throws IOException {
        RawPackWriter writer = RawPackWriter.create(out, METADATA);

        assertThat(out.toByteArray())
                .isEqualTo(new byte[] {'B', 'L', 'O', 'B', 'P', 'A', 'C', 'K', 1, 0, 0, 0, 0, 0, 0, 0});
        assertThat(writer.length()).isEqualTo(16);
        assertThat(writer.status()).isEqualTo(RawPackWriter.Status.OPEN);
    }

    @Test
    void appendReturnsEntryReferencesInOrderAndWritesPayloadsBackToBack() throws IOException {
        RawPackWriter writer = RawPackWriter.create(out, METADATA);

        long first = writer.append(ascii("abc"));
        long second = writer.append(ascii("XYZxyz"), 3, 2);

        assertThat(first).isEqualTo(0x8000_0000_0000_0000L);
        assertThat(second).isEqualTo(0x8000_0000_0000_0001L);
        assertThat(Arrays.copyOfRange(out.toByteArray(), 16, out.size())).isEqualTo(ascii("abcxy"));
        assertThat(writer.length()).isEqualTo(21);
        assertThat(writer.entryCount()).isEqualTo(2);
        assertThat(writer.payloadBytes()).isEqualTo(5);
    }

    @Test
    void appendFromStreamCopiesTheStreamToItsEnd() throws IOException {
        byte[] payload = bytes(200_000, 3);
        RawPackWriter writer = RawPackWriter.create(out, METADATA);

        writer.append(new ByteArrayInputStream(payload));

        assertThat(Arrays.copyOfRange(out.toByteArray(), 16, out.size())).isEqualTo(payload);
        assertThat(writer.payloadBytes()).isEqualTo(payload.length);
    }

    @Test
    void appendSharedWritesNoPayloadButCountsLogicalBytes() throws IOException {
        RawPackWriter writer = RawPackWriter.create(out, METADATA);
        long original = writer.append(ascii("shared"));

        long copy = writer.appendShared(original);

        assertThat(copy).isEqualTo(RawPackFormat.entryReference(1));
        assertThat(out.size()).isEqualTo(16 + 6);
        assertThat(writer.payloadBytes()).isEqualTo(12);
    }

    @Test
    void appendSharedRejectsEntriesThatDoNotExist() throws IOException {
        RawPackWriter writer = RawPackWriter.create(out, METADATA);
        writer.append(ascii("one"));

        assertThatThrownBy(() -> writer.appendShared(RawPackFormat.entryReference(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("entry 1 does not exist (pack has 1 entries)");
        assertThatThrownBy(() -> writer.appendShared(16))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bit 63 is clear");
    }

    @Test
    void finishWritesTableMetadataAndTailAndReturnsTheLength() throws IOException {
        RawPackWriter writer = RawPackWriter.create(out, METADATA);
        writer.append(ascii("abc"));
        long predicted = writer.finishedLength();

        long length = writer.finish();

        byte[] pack = out.toByteArray();
        byte[] metadata = METADATA.toJson(1, 3);
        assertThat(length).isEqualTo(pack.length).isEqualTo(predicted).isEqualTo(writer.length());
        assertThat(pack.length).isEqualTo(16 + 3 + 24 + metadata.length + 32);
        ByteBuffer tail = ByteBuffer.wrap(pack, pack.length - 32, 32).slice().order(ByteOrder.LITTLE_ENDIAN);
        assertThat(tail.getLong(0)).as("footer_start").isEqualTo(19);
        assertThat(tail.getInt(8)).as("entry_count").isEqualTo(1);
        assertThat(tail.getInt(12)).as("metadata_length").isEqualTo(metadata.length);
        assertThat(tail.getShort(20)).as("version").isEqualTo((short) 1);
        assertThat(tail.getShort(22)).as("flags").isZero();
        assertThat(Arrays.copyOfRange(pack, pack.length - 8, pack.length)).isEqualTo(ascii("BLOBPACK"));
        assertThat(Arrays.copyOfRange(pack, 19 + 24, 19 + 24 + metadata.length)).isEqualTo(metadata);
        assertThat(writer.status()).isEqualTo(RawPackWriter.Status.FINISHED);
    }

    @Test
    void writerRejectsUseAfterFinish() throws IOException {
        RawPackWriter writer = RawPackWriter.create(out, METADATA);
        long entry = writer.append(ascii("x"));
        writer.finish();

        assertThatThrownBy(() -> writer.append(ascii("y")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot append")
                .hasMessageContaining("blob set 'set-1' sidecar 7 is FINISHED");
        assertThatThrownBy(() -> writer.append(new ByteArrayInputStream(ascii("y"))))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> writer.appendShared(entry)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(writer::finish)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot finish");
        assertThatThrownBy(writer::state).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(writer::abort)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot abort a finished pack");
    }

    @Test
    void writerRejectsUseAfterAbortButAbortsAgainQuietly() throws IOException {
        RawPackWriter writer = RawPackWriter.create(out, METADATA);
        writer.append(ascii("x"));
        writer.abort();

        assertThatThrownBy(() -> writer.append(ascii("y")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is ABORTED");
        assertThatThrownBy(writer::finish).isInstanceOf(IllegalStateException.class);
        writer.abort();
        assertThat(writer.status()).isEqualTo(RawPackWriter.Status.ABORTED);
        assertThat(out.size()).as("nothing written after abort").isEqualTo(17);
    }

    @Test
    void failedWriteLeavesTheWriterFailedBecauseTheStreamPositionIsUnknown() throws IOException {
        FailingOutputStream fullDisk = new FailingOutputStream(20);
        RawPackWriter writer = RawPackWriter.create(fullDisk, METADATA);

        assertThatThrownBy(() -> writer.append(ascii("too long for the disk")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("disk full");

        assertThat(writer.status()).isEqualTo(RawPackWriter.Status.FAILED);
        assertThatThrownBy(() -> writer.append(ascii("a")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is FAILED");
        assertThatThrownBy(writer::finish).isInstanceOf(IllegalStateException.class);
        writer.abort();
        assertThat(writer.status()).isEqualTo(RawPackWriter.Status.ABORTED);
    }

    @Test
    void failedSourceStreamLeavesTheWriterFailedAfterPartOfThePayloadWasWritten() throws IOException {
        RawPackWriter writer = RawPackWriter.create(out, METADATA);
        InputStream source = new InputStream() {
            private int served;

            @Override
            public int read() throws IOException {
                if (served++ < 10) {
                    return 'a';
                }
                throw new IOException("connection reset");
            }
        };

        assertThatThrownBy(() -> writer.append(source)).hasMessageContaining("connection reset");

        assertThat(writer.status()).isEqualTo(RawPackWriter.Status.FAILED);
        assertThatThrownBy(writer::state).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void resumeFromStateContinuesToTheSameBytesAsAnUninterruptedWrite() throws IOException {
        byte[] a = ascii("first");
        byte[] b = new byte[0];
        byte[] c = bytes(70_000, 4);
        byte[] d = ascii("after the restart");

        ByteArrayOutputStream uninterrupted = new ByteArrayOutputStream();
        RawPackWriter straight = RawPackWriter.create(uninterrupted, METADATA);
        long refA = straight.append(a);
        straight.append(b);
        straight.append(c);
        straight.append(d);
        straight.appendShared(refA);
        straight.finish();

        ByteArrayOutputStream beforeCrash = new ByteArrayOutputStream();
        RawPackWriter first = RawPackWriter.create(beforeCrash, METADATA);
        long refA2 = first.append(a);
        first.append(b);
        first.append(new ByteArrayInputStream(c));
        RawPackWriterState snapshot = first.state();
        first.append(ascii("written after the checkpoint, lost in the crash"));

        // The recovered stream holds exactly the snapshot's bytes, as a RecoverableWriter restores it.
        ByteArrayOutputStream recovered = new ByteArrayOutputStream();
        recovered.write(beforeCrash.toByteArray(), 0, Math.toIntExact(snapshot.length()));
        RawPackWriter resumed = RawPackWriter.resume(recovered, snapshot);
        assertThat(resumed.state()).isEqualTo(snapshot);
        assertThat(resumed.payloadBytes()).isEqualTo(a.length + b.length + c.length);
        resumed.append(d);
        resumed.appendShared(refA2);
        resumed.finish();

        assertThat(recovered.toByteArray()).isEqualTo(uninterrupted.toByteArray());
    }

    @Test
    void stateIsASnapshotThatLaterAppendsDoNotChange() throws IOException {
        RawPackWriter writer = RawPackWriter.create(out, METADATA);
        writer.append(ascii("abc"));
        RawPackWriterState state = writer.state();

        writer.append(ascii("defg"));

        assertThat(state.length()).isEqualTo(19);
        assertThat(state.entryCount()).isEqualTo(1);
        assertThat(state.entryOffset(0)).isEqualTo(16);
        assertThat(state.entryLength(0)).isEqualTo(3);
        assertThat(state.metadata()).isEqualTo(METADATA);
        assertThat(writer.state()).isNotEqualTo(state);
    }

    @Test
    void stateRejectsEntriesOutsideTheWrittenBytes() {
        assertThatThrownBy(() -> new RawPackWriterState(METADATA, 20, new long[] {16}, new long[] {5}, new int[] {0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("entry 0 [16, +5) lies outside the written payload [16, 20)");
        assertThatThrownBy(() -> new RawPackWriterState(METADATA, 10, new long[0], new long[0], new int[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 16 bytes, found 10");
    }

    @Test
    void writerNeverClosesTheStream() throws IOException {
        CloseTrackingOutputStream stream = new CloseTrackingOutputStream();
        RawPackWriter writer = RawPackWriter.create(stream, METADATA);
        writer.append(ascii("x"));
        writer.finish();

        assertThat(stream.closed).isFalse();
        assertThat(stream.flushed).isTrue();
    }

    private static final class FailingOutputStream extends OutputStream {
        private final int capacity;
        private int written;

        FailingOutputStream(int capacity) {
            this.capacity = capacity;
        }

        @Override
        public void write(int b) throws IOException {
            if (written == capacity) {
                throw new IOException("disk full after " + capacity + " bytes");
            }
            written++;
        }
    }

    private static final class CloseTrackingOutputStream extends ByteArrayOutputStream {
        boolean closed;
        boolean flushed;

        @Override
        public void flush() {
            flushed = true;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
