package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.TestPacks.ascii;
import static io.blobingest.objectlayer.pack.TestPacks.bytes;
import static io.blobingest.objectlayer.pack.TestPacks.flipBit;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class RawPackVerifierTest {

    private static final String FILE = "/data/set-1/1.blob";

    private final RawPackVerifier verifier = new RawPackVerifier(RawPackReader.withAllFeatures());

    @Test
    void soundPackHasNoFaults() throws IOException {
        byte[] pack = TestPacks.write(ascii("alpha"), new byte[0], bytes(300_000, 1), ascii("omega"));

        assertThat(verifier.verify(new RecordingObject(FILE, pack))).isEmpty();
    }

    @Test
    void emptyPackHasNoFaults() throws IOException {
        assertThat(verifier.verify(new RecordingObject(FILE, TestPacks.write())))
                .isEmpty();
    }

    @Test
    void reportsEveryCorruptPayloadWithItsOffsetAndCrcs() throws IOException {
        byte[] first = ascii("first payload");
        byte[] second = ascii("second");
        byte[] third = ascii("third payload");
        byte[] pack = TestPacks.write(first, second, third);
        long firstOffset = RawPackFormat.HEADER_LENGTH;
        long thirdOffset = firstOffset + first.length + second.length;
        byte[] damaged = flipBit(flipBit(pack, firstOffset + 3, 0), thirdOffset + 5, 7);

        List<PackFault> faults = verifier.verify(new RecordingObject(FILE, damaged));

        assertThat(faults).hasSize(2);
        assertThat(faults.get(0).file()).isEqualTo(FILE);
        assertThat(faults.get(0).offset()).isEqualTo(firstOffset);
        assertThat(faults.get(0).message())
                .contains(FILE, "payload crc32c mismatch in entry 0", "at offset " + firstOffset)
                .contains("expected crc32c " + crc(first))
                .contains("found crc32c " + crc(TestPacks.flipBit(first, 3, 0)));
        assertThat(faults.get(1).offset()).isEqualTo(thirdOffset);
        assertThat(faults.get(1).message())
                .contains("entry 2", "expected crc32c " + crc(third))
                .contains("found crc32c " + crc(TestPacks.flipBit(third, 5, 7)));
    }

    @Test
    void reportsEachEntryThatSharesCorruptBytesButReadsThemOnce() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RawPackWriter writer = RawPackWriter.create(out, TestPacks.METADATA);
        long shared = writer.append(ascii("shared bytes"));
        writer.append(ascii("other"));
        writer.appendShared(shared);
        writer.finish();
        byte[] damaged = flipBit(out.toByteArray(), RawPackFormat.HEADER_LENGTH, 1);
        RecordingObject object = new RecordingObject(FILE, damaged);

        List<PackFault> faults = verifier.verify(object);

        assertThat(faults).extracting(PackFault::offset).containsExactly(16L, 16L);
        assertThat(faults.get(0).message()).contains("entry 0");
        assertThat(faults.get(1).message()).contains("entry 2");
        assertThat(object.reads())
                .filteredOn(read -> read.position() == 16 && read.length() == 12)
                .hasSize(1);
    }

    @Test
    void reportsAPayloadWhoseSha256IsNotTheRecordedOneWithFileEntryOffsetAndBothHashes() throws IOException {
        byte[] first = ascii("first");
        byte[] second = ascii("second");
        byte[] recorded = RawPackEntrySha256Test.sha256(ascii("not the second payload"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RawPackWriter writer = RawPackWriter.create(out, TestPacks.METADATA, true);
        writer.append(first);
        writer.append(second, recorded);
        writer.finish();
        long secondOffset = RawPackFormat.HEADER_LENGTH + first.length;

        List<PackFault> faults = verifier.verify(new RecordingObject(FILE, out.toByteArray()));

        assertThat(faults)
                .containsExactly(new PackFault(
                        FILE,
                        secondOffset,
                        FILE + ": payload sha256 mismatch in entry 1 at offset " + secondOffset + ": expected sha256 "
                                + HexFormat.of().formatHex(recorded) + ", found sha256 "
                                + HexFormat.of().formatHex(RawPackEntrySha256Test.sha256(second))));
    }

    @Test
    void damagedPayloadOfAPackWithHashesFailsBothItsCrcAndItsSha256() throws IOException {
        byte[] payload = ascii("payload");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RawPackWriter writer = RawPackWriter.create(out, TestPacks.METADATA, true);
        writer.append(payload);
        writer.finish();
        byte[] damaged = flipBit(out.toByteArray(), RawPackFormat.HEADER_LENGTH + 2, 3);

        List<PackFault> faults = verifier.verify(new RecordingObject(FILE, damaged));

        assertThat(faults).extracting(PackFault::offset).containsExactly(16L, 16L);
        assertThat(faults.get(0).message()).contains("payload crc32c mismatch in entry 0");
        assertThat(faults.get(1).message())
                .contains("payload sha256 mismatch in entry 0")
                .contains("expected sha256 " + HexFormat.of().formatHex(RawPackEntrySha256Test.sha256(payload)));
    }

    @Test
    void readsLargePayloadsInBoundedChunks() throws IOException {
        byte[] pack = TestPacks.write(bytes(1_000_000, 2));
        RecordingObject object = new RecordingObject(FILE, pack);

        assertThat(verifier.verify(object)).isEmpty();
        assertThat(object.reads()).allSatisfy(read -> assertThat(read.length()).isLessThanOrEqualTo(64 * 1024));
        assertThat(object.reads().stream()
                        .mapToLong(RecordingObject.Read::length)
                        .sum())
                .as("payload, header and one footer window, each byte once")
                .isEqualTo(1_000_000L + 16 + 64 * 1024);
    }

    @Test
    void reportsHeaderFaultAndStillChecksFooterAndPayloads() throws IOException {
        byte[] payload = ascii("payload");
        byte[] pack = TestPacks.write(payload);
        byte[] damaged = flipBit(flipBit(pack, 0, 0), 16, 0);

        List<PackFault> faults = verifier.verify(new RecordingObject(FILE, damaged));

        assertThat(faults).extracting(PackFault::offset).containsExactly(0L, 16L);
        assertThat(faults.get(0).message()).contains("bad header magic", "expected \"BLOBPACK\", found \"CLOBPACK\"");
        assertThat(faults.get(1).message()).contains("payload crc32c mismatch in entry 0");
    }

    @Test
    void stopsAfterFooterFaultBecauseEntriesCannotBeTrusted() throws IOException {
        byte[] payload = ascii("payload");
        byte[] pack = TestPacks.write(payload);
        long footerStart = RawPackFormat.HEADER_LENGTH + payload.length;
        byte[] damaged = flipBit(flipBit(pack, 16, 0), footerStart + 1, 0);

        List<PackFault> faults = verifier.verify(new RecordingObject(FILE, damaged));

        assertThat(faults).hasSize(1);
        assertThat(faults.get(0).offset()).isEqualTo(footerStart);
        assertThat(faults.get(0).message()).contains("footer crc32c mismatch");
    }

    @Test
    void reportsTruncationOnceForAFileShorterThanAHeader() throws IOException {
        List<PackFault> faults = verifier.verify(new RecordingObject(FILE, ascii("BLOBPA")));

        assertThat(faults).hasSize(1);
        assertThat(faults.get(0).message()).contains("truncated pack", "at least 48 bytes", "found 6 bytes");
    }

    private static String crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return Long.toString(crc.getValue());
    }
}
