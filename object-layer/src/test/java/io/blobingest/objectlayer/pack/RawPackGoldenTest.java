package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.TestPacks.ascii;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The pack in {@code golden/raw-pack-v1.hex} was written by hand from spec.md section 2, with its
 * crc32c values computed outside Java. Reading it proves the reader follows the contract; reproducing it
 * proves the writer does, byte for byte, metadata JSON included. {@code
 * golden/raw-pack-v1-entry-sha256.hex} is the same pack from a writer that records entry hashes,
 * its SHA-256s computed outside Java too.
 */
class RawPackGoldenTest {

    private static final String FILE = "golden/raw-pack-v1.hex";
    private static final String FILE_WITH_SHA256 = "golden/raw-pack-v1-entry-sha256.hex";
    private static final String SHA256_HELLO = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";
    private static final String SHA256_EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    @Test
    void readerReadsTheHandWrittenPack() throws IOException {
        byte[] pack = golden(FILE);
        RecordingObject object = new RecordingObject(FILE, pack);

        RawPackFooter footer = RawPackReader.withAllFeatures().readFooter(object);

        assertThat(pack).hasSize(307);
        assertThat(footer.footerStart()).isEqualTo(21);
        assertThat(footer.entryCount()).isEqualTo(3);
        assertThat(footer.entryOffset(0)).isEqualTo(16);
        assertThat(footer.entryLength(0)).isEqualTo(5);
        assertThat(footer.entryCrc32c(0)).isEqualTo(0x9a71bb4c);
        assertThat(footer.entryOffset(1)).isEqualTo(21);
        assertThat(footer.entryLength(1)).isZero();
        assertThat(footer.entryCrc32c(1)).isZero();
        assertThat(footer.entryOffset(2)).isEqualTo(16);
        assertThat(footer.entryLength(2)).isEqualTo(5);
        assertThat(footer.blobSet()).isEqualTo("golden-set");
        assertThat(footer.blobId()).isEqualTo(1);
        assertThat(footer.metadata())
                .containsEntry("created_by", "blob-ingest-golden")
                .containsEntry("payload_bytes", 10);
        assertThat(footer.hasEntrySha256()).isFalse();
        assertThat(footer.entrySha256(0)).isEmpty();
        assertThat(new RawPackVerifier(RawPackReader.withAllFeatures()).verify(object))
                .isEmpty();
    }

    @Test
    void writerReproducesTheHandWrittenPackByteForByte() throws IOException {
        assertThat(HexFormat.of().formatHex(writeGoldenEntries(false)))
                .isEqualTo(HexFormat.of().formatHex(golden(FILE)));
    }

    @Test
    void readerReadsTheHandWrittenPackWithEntryHashes() throws IOException {
        byte[] pack = golden(FILE_WITH_SHA256);
        RecordingObject object = new RecordingObject(FILE_WITH_SHA256, pack);

        RawPackFooter footer = RawPackReader.withAllFeatures().readFooter(object);

        assertThat(pack).hasSize(525);
        assertThat(footer.entryCount()).isEqualTo(3);
        assertThat(footer.entryOffset(2)).isEqualTo(16);
        assertThat(footer.hasEntrySha256()).isTrue();
        assertThat(footer.entrySha256(0)).map(HexFormat.of()::formatHex).contains(SHA256_HELLO);
        assertThat(footer.entrySha256(1)).map(HexFormat.of()::formatHex).contains(SHA256_EMPTY);
        assertThat(footer.entrySha256(2))
                .as("a shared entry carries the hash of the bytes it shares")
                .map(HexFormat.of()::formatHex)
                .contains(SHA256_HELLO);
        assertThat(footer.metadata())
                .containsEntry("created_by", "blob-ingest-golden")
                .doesNotContainKey(RawPackFormat.META_ENTRY_SHA256);
        assertThat(new RawPackVerifier(RawPackReader.withAllFeatures()).verify(object))
                .isEmpty();
    }

    @Test
    void writerRecordingEntryHashesReproducesTheHandWrittenPackByteForByte() throws IOException {
        assertThat(HexFormat.of().formatHex(writeGoldenEntries(true)))
                .isEqualTo(HexFormat.of().formatHex(golden(FILE_WITH_SHA256)));
    }

    @Test
    void packsWithAndWithoutEntryHashesDifferOnlyInTheMetadataAndTail() throws IOException {
        byte[] plain = golden(FILE);
        byte[] hashed = golden(FILE_WITH_SHA256);
        int metadataStart = 93;
        int plainMetadataEnd = plain.length - 32;

        assertThat(Arrays.copyOf(hashed, metadataStart)).isEqualTo(Arrays.copyOf(plain, metadataStart));
        assertThat(new String(hashed, metadataStart, hashed.length - 32 - metadataStart, StandardCharsets.UTF_8))
                .startsWith(
                        new String(plain, metadataStart, plainMetadataEnd - metadataStart - 1, StandardCharsets.UTF_8)
                                + ",\"entry_sha256\":[\"" + SHA256_HELLO + "\",");
    }

    /** The golden entries ("hello", empty, entry 0 shared) as the writer packs them. */
    private static byte[] writeGoldenEntries(boolean recordEntrySha256) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RawPackWriter writer = RawPackWriter.create(
                out, new RawPackMetadata("golden-set", 1, "blob-ingest-golden"), recordEntrySha256);
        long hello = writer.append(ascii("hello"));
        writer.append(new byte[0]);
        writer.appendShared(hello);
        writer.finish();
        return out.toByteArray();
    }

    /** A golden file's bytes: hex pairs, with everything after a '#' on a line ignored. */
    private static byte[] golden(String file) throws IOException {
        try (InputStream in = RawPackGoldenTest.class.getClassLoader().getResourceAsStream(file)) {
            assertThat(in).as(file).isNotNull();
            StringBuilder hex = new StringBuilder();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                int comment = line.indexOf('#');
                hex.append((comment < 0 ? line : line.substring(0, comment)).replaceAll("\\s", ""));
            }
            return HexFormat.of().parseHex(hex);
        }
    }
}
