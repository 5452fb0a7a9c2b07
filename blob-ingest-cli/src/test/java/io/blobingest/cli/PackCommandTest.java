package io.blobingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.pack.RawPackFooter;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.objectlayer.pack.RawPackWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PackCommandTest {

    @TempDir
    Path dir;

    @Test
    void writePacksFilesAndDirectoriesAndPrintsEachEntry() throws IOException {
        Path a = Files.write(dir.resolve("a.bin"), new byte[] {1, 2, 3});
        Path frames = Files.createDirectories(dir.resolve("frames"));
        Files.write(frames.resolve("f2.bin"), new byte[0]);
        Files.write(frames.resolve("f1.bin"), new byte[70_000]);
        Path out = dir.resolve("out.blob");

        CliRun run = CliRun.of(
                "pack",
                "write",
                "--out",
                out.toString(),
                "--blob-set",
                "set-1",
                "--blob-id",
                "7",
                a.toString(),
                frames.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        CRC32C crc = new CRC32C();
        crc.update(new byte[] {1, 2, 3});
        assertThat(run.out())
                .contains(
                        Long.toUnsignedString(RawPackFormat.entryReference(0)) + "\t3\t" + crc.getValue() + "\t" + a,
                        Long.toUnsignedString(RawPackFormat.entryReference(1)) + "\t70000\t",
                        frames.resolve("f1.bin").toString(),
                        Long.toUnsignedString(RawPackFormat.entryReference(2)) + "\t0\t0\t" + frames.resolve("f2.bin"));
        RawPackFooter footer = PackCommand.readFooter(out);
        assertThat(footer.entryCount()).isEqualTo(3);
        assertThat(footer.blobSet()).isEqualTo("set-1");
        assertThat(footer.blobId()).isEqualTo(7);
    }

    @Test
    void inspectPrintsHeaderMetadataAndEntries() throws IOException {
        Path input = Files.write(dir.resolve("x"), "hello".getBytes());
        Path out = dir.resolve("p.blob");
        assertThat(CliRun.of("pack", "write", "--out", out.toString(), input.toString())
                        .exitCode())
                .isZero();

        CliRun run = CliRun.of("pack", "inspect", out.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("entry_count     1")
                .contains("pack_type")
                .contains("blob_object_pack")
                .contains(Long.toUnsignedString(RawPackFormat.entryReference(0)) + "\t16\t5\t")
                .contains("  index\tposition\toffset\tlength\tcrc32c\n")
                .doesNotContain("sha256");
    }

    @Test
    void inspectListsEachEntrysSha256WhenTheFooterRecordsThem() throws IOException {
        Path pack = dir.resolve("hashed.blob");
        byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
        try (OutputStream out = Files.newOutputStream(pack)) {
            RawPackWriter writer = RawPackWriter.create(out, new RawPackMetadata("set-1", 1, "test"), true);
            writer.append(hello);
            writer.append(new byte[0]);
            writer.finish();
        }

        CliRun run = CliRun.of("pack", "inspect", pack.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("  entry_sha256         one per entry, listed below\n")
                .contains("  index\tposition\toffset\tlength\tcrc32c\tsha256\n")
                .contains("\t16\t5\t" + crc32c(hello) + "\t" + sha256Hex(hello) + "\n")
                .contains("\t21\t0\t0\t" + sha256Hex(new byte[0]) + "\n");
    }

    @Test
    void verifyReportsAPayloadWhoseSha256IsNotTheRecordedOne() throws IOException {
        Path pack = dir.resolve("p.blob");
        byte[] claimed = sha256("other bytes".getBytes(StandardCharsets.US_ASCII));
        try (OutputStream out = Files.newOutputStream(pack)) {
            RawPackWriter writer = RawPackWriter.create(out, new RawPackMetadata("set-1", 1, "test"), true);
            writer.append("payload".getBytes(StandardCharsets.US_ASCII), claimed);
            writer.finish();
        }

        CliRun run = CliRun.of("pack", "verify", pack.toString());

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_FAULT);
        assertThat(run.out())
                .contains("FAULT " + pack + " offset 16: ")
                .contains("payload sha256 mismatch in entry 0")
                .contains("expected sha256 " + HexFormat.of().formatHex(claimed))
                .contains("1 packs checked, 1 faults");
    }

    private static long crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256Hex(byte[] bytes) {
        return HexFormat.of().formatHex(sha256(bytes));
    }

    @Test
    void inspectOfACorruptPackNamesFileAndOffsetWithoutAStackTrace() throws IOException {
        Path input = Files.write(dir.resolve("x"), "hello".getBytes());
        Path out = dir.resolve("p.blob");
        CliRun.of("pack", "write", "--out", out.toString(), input.toString());
        byte[] bytes = Files.readAllBytes(out);
        bytes[bytes.length - 1] ^= 0x01;
        Files.write(out, bytes);

        CliRun run = CliRun.of("pack", "inspect", out.toString());

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_FAULT);
        assertThat(run.err())
                .contains(out.toString())
                .contains("offset " + (bytes.length - 8))
                .doesNotContain("\tat ");
    }

    @Test
    void writeRefusesSidecarIdZeroAsAUsageError() throws IOException {
        Path input = Files.write(dir.resolve("x"), new byte[1]);

        CliRun run = CliRun.of(
                "pack", "write", "--out", dir.resolve("p.blob").toString(), "--blob-id", "0", input.toString());

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err()).contains("--blob-id").contains("Usage:").doesNotContain("\tat ");
        assertThat(dir.resolve("p.blob")).doesNotExist();
    }

    @Test
    void writeRefusesAMissingInput() {
        CliRun run = CliRun.of(
                "pack",
                "write",
                "--out",
                dir.resolve("p.blob").toString(),
                dir.resolve("nope").toString());

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err()).contains("no such file or directory");
    }

    @Test
    void unknownCommandAndMissingOptionsAreUsageErrors() {
        assertThat(CliRun.of("frobnicate").exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(CliRun.of().exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        CliRun run = CliRun.of("pack", "write", "x");
        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err()).contains("--out").contains("Usage:");
    }

    @Test
    void verifyPassesSoundPacksAndSkipsDedicatedSidecars() throws IOException {
        Path set = Files.createDirectories(dir.resolve("base/set-1"));
        Path input = Files.write(dir.resolve("x"), new byte[5000]);
        CliRun.of(
                "pack",
                "write",
                "--out",
                set.resolve("10000000000000000000000000000000.blob").toString(),
                input.toString());
        Files.write(set.resolve("01000000000000000000000000000000.blob"), new byte[] {9, 9, 9});

        CliRun run = CliRun.of("pack", "verify", dir.resolve("base").toString());

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("1 packs checked, 0 faults, 1 non-pack sidecars skipped");
    }

    @Test
    void verifyReportsAPayloadBitFlipWithFileAndOffset() throws IOException {
        Path input = Files.write(dir.resolve("x"), new byte[5000]);
        Path pack = dir.resolve("p.blob");
        CliRun.of("pack", "write", "--out", pack.toString(), input.toString());
        byte[] bytes = Files.readAllBytes(pack);
        bytes[100] ^= 0x10;
        Files.write(pack, bytes);

        CliRun run = CliRun.of("pack", "verify", pack.toString());

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_FAULT);
        assertThat(run.out()).contains("FAULT " + pack + " offset 16").contains("crc32c");
    }
}
