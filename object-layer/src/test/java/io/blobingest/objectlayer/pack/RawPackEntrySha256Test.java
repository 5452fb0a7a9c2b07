package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.TestPacks.METADATA;
import static io.blobingest.objectlayer.pack.TestPacks.ascii;
import static io.blobingest.objectlayer.pack.TestPacks.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A writer that records entry hashes ({@code entry_sha256}), and what readers and states make of them. */
class RawPackEntrySha256Test {

    private static final String FILE = "/data/set-1/7.blob";

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @Test
    void recordingWriterRecordsEachPayloadsSha256WhicheverWayItIsAppended() throws IOException {
        byte[] small = ascii("small");
        byte[] sliced = ascii("..sliced..");
        byte[] streamed = bytes(200_000, 5);
        RawPackWriter writer = RawPackWriter.create(out, METADATA, true);
        long first = writer.append(small);
        writer.append(sliced, 2, 6);
        writer.append(new ByteArrayInputStream(streamed));
        writer.append(new byte[0]);
        writer.appendShared(first);
        writer.finish();

        RawPackFooter footer = readFooter(out.toByteArray());

        assertThat(footer.hasEntrySha256()).isTrue();
        assertThat(footer.entrySha256(0)).contains(sha256(small));
        assertThat(footer.entrySha256(1)).contains(sha256(Arrays.copyOfRange(sliced, 2, 8)));
        assertThat(footer.entrySha256(2)).contains(sha256(streamed));
        assertThat(footer.entrySha256(3)).contains(sha256(new byte[0]));
        assertThat(footer.entrySha256(4))
                .as("a shared entry carries the hash of the entry whose bytes it names")
                .contains(sha256(small));
        assertThat(new RawPackVerifier(RawPackReader.withAllFeatures())
                        .verify(new RecordingObject(FILE, out.toByteArray())))
                .isEmpty();
    }

    @Test
    void footerWithoutEntryHashesKeepsEverythingElse() throws IOException {
        RawPackWriter writer = RawPackWriter.create(out, METADATA, true);
        writer.append(ascii("abc"));
        writer.finish();
        RawPackFooter footer = readFooter(out.toByteArray());

        RawPackFooter withoutHashes = footer.withoutEntrySha256();

        assertThat(withoutHashes.hasEntrySha256()).isFalse();
        assertThat(withoutHashes.entrySha256(0)).isEmpty();
        assertThat(withoutHashes.entryCount()).isEqualTo(1);
        assertThat(withoutHashes.entryCrc32c(0)).isEqualTo(footer.entryCrc32c(0));
        assertThat(withoutHashes.metadata()).isEqualTo(footer.metadata());
        assertThat(footer.entrySha256(0)).as("the original keeps them").isPresent();
    }

    @Test
    void appendWithAGivenSha256RecordsItAsGivenWithoutHashingThePayloadAgain() throws IOException {
        byte[] claimed = sha256(ascii("something else"));
        RawPackWriter writer = RawPackWriter.create(out, METADATA, true);
        writer.append(ascii("payload"), claimed);
        writer.finish();

        assertThat(readFooter(out.toByteArray()).entrySha256(0)).contains(claimed);
    }

    @Test
    void appendWithASha256NeedsAWriterThatRecordsHashesAnd32Bytes() throws IOException {
        RawPackWriter plain = RawPackWriter.create(out, METADATA);
        assertThatThrownBy(() -> plain.append(ascii("x"), sha256(ascii("x"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("records no entry hashes");
        assertThat(plain.entryCount()).isZero();

        RawPackWriter recording = RawPackWriter.create(new ByteArrayOutputStream(), METADATA, true);
        assertThatThrownBy(() -> recording.append(ascii("x"), new byte[20]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a SHA-256 has 32 bytes, found 20");
        assertThat(recording.entryCount()).isZero();
    }

    @Test
    void writerThatRecordsNoHashesWritesNoEntrySha256() throws IOException {
        RawPackWriter writer = RawPackWriter.create(out, METADATA);
        writer.append(ascii("abc"));
        writer.finish();
        byte[] pack = out.toByteArray();

        RawPackFooter footer = readFooter(pack);

        assertThat(writer.recordsEntrySha256()).isFalse();
        assertThat(footer.hasEntrySha256()).isFalse();
        assertThat(footer.entrySha256(0)).isEmpty();
        assertThat(new String(pack, StandardCharsets.ISO_8859_1)).doesNotContain(RawPackFormat.META_ENTRY_SHA256);
    }

    @Test
    void finishedLengthPredictsAPackWithKnownAndUnknownHashes() throws IOException {
        RawPackWriter plain = RawPackWriter.create(out, METADATA);
        plain.append(ascii("before hashes were recorded"));
        RawPackWriter writer = RawPackWriter.resume(out, plain.state(), true);
        assertThat(writer.finishedLengthAfterAppend(7)).isEqualTo(finishedLengthOf(writer.state(), ascii("7 bytes")));
        writer.append(ascii("7 bytes"));
        writer.appendShared(RawPackFormat.entryReference(0));
        long predicted = writer.finishedLength();
        assertThat(writer.finishedLengthAfterAppend(300)).isEqualTo(finishedLengthOf(writer.state(), bytes(300, 1)));

        assertThat(writer.finish()).isEqualTo(predicted).isEqualTo(out.size());
    }

    /** The length the pack of {@code state} has once {@code payload} is appended and it is finished. */
    private static long finishedLengthOf(RawPackWriterState state, byte[] payload) throws IOException {
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        copy.write(new byte[Math.toIntExact(state.length())]);
        RawPackWriter writer = RawPackWriter.resume(copy, state);
        writer.append(payload);
        return writer.finish();
    }

    @Test
    void resumeFromStateKeepsTheHashesAndWritesTheSameBytesAsAnUninterruptedWrite() throws IOException {
        byte[] a = ascii("first");
        byte[] b = bytes(70_000, 4);
        byte[] c = ascii("after the restart");
        ByteArrayOutputStream uninterrupted = new ByteArrayOutputStream();
        RawPackWriter straight = RawPackWriter.create(uninterrupted, METADATA, true);
        long refA = straight.append(a);
        straight.append(b);
        straight.append(c);
        straight.appendShared(refA);
        straight.finish();

        RawPackWriter first = RawPackWriter.create(out, METADATA, true);
        first.append(a);
        first.append(new ByteArrayInputStream(b));
        RawPackWriterState snapshot = first.state();
        ByteArrayOutputStream recovered = new ByteArrayOutputStream();
        recovered.write(out.toByteArray(), 0, Math.toIntExact(snapshot.length()));
        RawPackWriter resumed = RawPackWriter.resume(recovered, snapshot);
        resumed.append(c);
        resumed.appendShared(refA);
        resumed.finish();

        assertThat(snapshot.recordsEntrySha256()).isTrue();
        assertThat(snapshot.entrySha256(1)).contains(sha256(b));
        assertThat(resumed.recordsEntrySha256()).isTrue();
        assertThat(recovered.toByteArray()).isEqualTo(uninterrupted.toByteArray());
    }

    @Test
    void resumingAStateWithoutHashesToRecordThemLeavesItsEntriesUnknown() throws IOException {
        byte[] old = ascii("appended by a writer that recorded no hashes");
        byte[] later = ascii("appended after the resume");
        RawPackWriter plain = RawPackWriter.create(out, METADATA);
        long oldRef = plain.append(old);
        RawPackWriterState state = plain.state();

        RawPackWriter resumed = RawPackWriter.resume(out, state, true);
        resumed.append(later);
        resumed.appendShared(oldRef);
        resumed.finish();
        RawPackFooter footer = readFooter(out.toByteArray());

        assertThat(state.recordsEntrySha256()).isFalse();
        assertThat(footer.hasEntrySha256()).isTrue();
        assertThat(footer.entrySha256(0)).isEmpty();
        assertThat(footer.entrySha256(1)).contains(sha256(later));
        assertThat(footer.entrySha256(2))
                .as("shares an entry whose hash is unknown")
                .isEmpty();
        assertThat(new String(out.toByteArray(), StandardCharsets.US_ASCII))
                .contains(",\"entry_sha256\":[null,\"" + hex(sha256(later)) + "\",null]}");
    }

    @Test
    void resumingWithoutRecordingDropsTheHashes() throws IOException {
        byte[] a = ascii("a");
        byte[] b = ascii("b");
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        RawPackWriter straight = RawPackWriter.create(plain, METADATA);
        straight.append(a);
        straight.append(b);
        straight.finish();

        RawPackWriter recording = RawPackWriter.create(out, METADATA, true);
        recording.append(a);
        RawPackWriter resumed = RawPackWriter.resume(out, recording.state(), false);
        resumed.append(b);
        resumed.finish();

        assertThat(out.toByteArray()).isEqualTo(plain.toByteArray());
    }

    @Test
    void stateTakesOneHashOrNullPerEntry() throws IOException {
        RawPackWriter writer = RawPackWriter.create(out, METADATA);
        writer.append(ascii("a"));
        writer.append(ascii("b"));
        RawPackWriterState state = writer.state();
        byte[] digest = sha256(ascii("b"));

        RawPackWriterState withHashes = state.withEntrySha256(new byte[][] {null, digest});

        assertThat(withHashes.recordsEntrySha256()).isTrue();
        assertThat(withHashes.entrySha256(0)).isEmpty();
        assertThat(withHashes.entrySha256(1)).contains(digest);
        assertThat(withHashes).isNotEqualTo(state);
        assertThat(withHashes.length()).isEqualTo(state.length());
        assertThat(withHashes.entryOffset(1)).isEqualTo(state.entryOffset(1));
        assertThat(state.withEntrySha256(new byte[][] {null, digest})).isEqualTo(withHashes);
        assertThatThrownBy(() -> state.withEntrySha256(new byte[][] {digest}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("SHA-256s of 1 entries for a pack of 2 entries");
        assertThatThrownBy(() -> state.withEntrySha256(new byte[][] {digest, new byte[31]}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("found 31");
    }

    private static RawPackFooter readFooter(byte[] pack) throws IOException {
        return RawPackReader.withAllFeatures().readFooter(new RecordingObject(FILE, pack));
    }

    static byte[] sha256(byte[] bytes) {
        return EntrySha256s.newDigest().digest(bytes);
    }

    private static String hex(byte[] bytes) {
        return EntrySha256s.toHex(bytes);
    }
}
