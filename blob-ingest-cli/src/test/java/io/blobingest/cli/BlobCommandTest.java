package io.blobingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.pack.RawPackFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlobCommandTest {

    @TempDir
    Path base;

    private Path set;

    @BeforeEach
    void createBlobSet() throws IOException {
        set = Files.createDirectories(base.resolve("set-1"));
    }

    @Test
    void catReadsAnObjectBackedPackEntry() throws IOException {
        Path first = Files.writeString(base.resolve("a"), "first frame");
        Path second = Files.writeString(base.resolve("b"), "second frame");
        CliRun.of(
                "pack",
                "write",
                "--out",
                set.resolve(BlobSets.sidecarFileName(1)).toString(),
                "--blob-set",
                "set-1",
                "--blob-id",
                "1",
                first.toString(),
                second.toString());

        byte[] bytes = cat(
                "--base",
                base.toString(),
                "--set",
                "set-1",
                "--id",
                "1",
                "--position",
                Long.toUnsignedString(RawPackFormat.entryReference(1)),
                "--size",
                "12");

        assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("second frame");
    }

    @Test
    void catReadsALegacyRawSidecarByByteOffset() throws IOException {
        Files.writeString(set.resolve(BlobSets.sidecarFileName(2)), "aaaaLEGACYbbbb");

        byte[] bytes = cat("--base", base.toString(), "--set", "set-1", "--id", "2", "--position", "4", "--size", "6");

        assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("LEGACY");
    }

    @Test
    void catReadsADedicatedSidecarAndAnExternalFileRange() throws IOException {
        Files.writeString(set.resolve(BlobSets.sidecarFileName(3)), "a whole video segment");
        Path external = Files.writeString(base.resolve("elsewhere.bin"), "0123456789");

        byte[] dedicated =
                cat("--kind", "dedicated", "--base", base.toString(), "--set", "set-1", "--id", "3", "--size", "21");
        byte[] range =
                cat("--kind", "external", "--uri", external.toUri().toString(), "--position", "2", "--size", "3");
        byte[] whole = cat("--kind", "external", "--uri", external.toUri().toString());

        assertThat(new String(dedicated, StandardCharsets.UTF_8)).isEqualTo("a whole video segment");
        assertThat(new String(range, StandardCharsets.UTF_8)).isEqualTo("234");
        assertThat(new String(whole, StandardCharsets.UTF_8)).isEqualTo("0123456789");
    }

    @Test
    void catWritesToStdoutByDefault() throws IOException {
        Path external = Files.writeString(base.resolve("e"), "to stdout");
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true));
        CliRun run;
        try {
            run = CliRun.of(
                    "blob",
                    "cat",
                    "--kind",
                    "external",
                    "--uri",
                    external.toUri().toString());
        } finally {
            System.setOut(original);
        }
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(captured.toString(StandardCharsets.UTF_8)).isEqualTo("to stdout");
    }

    @Test
    void catOfACorruptEntryFailsNamingFileAndOffset() throws IOException {
        Path input = Files.writeString(base.resolve("a"), "payload bytes");
        Path pack = set.resolve(BlobSets.sidecarFileName(1));
        CliRun.of("pack", "write", "--out", pack.toString(), "--blob-set", "set-1", input.toString());
        byte[] bytes = Files.readAllBytes(pack);
        bytes[RawPackFormat.HEADER_LENGTH + 2] ^= 0x01;
        Files.write(pack, bytes);

        CliRun run = CliRun.of(
                "blob",
                "cat",
                "--base",
                base.toString(),
                "--set",
                "set-1",
                "--id",
                "1",
                "--position",
                Long.toUnsignedString(RawPackFormat.entryReference(0)),
                "--size",
                "13",
                "--output",
                base.resolve("out").toString());

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_FAULT);
        assertThat(run.err())
                .contains(pack.toString())
                .contains("offset 16")
                .contains("crc32c")
                .doesNotContain("\tat ");
        assertThat(base.resolve("out")).doesNotExist();
    }

    @Test
    void catWithMissingOrBadArgumentsIsAUsageError() {
        CliRun missing = CliRun.of("blob", "cat", "--set", "set-1");
        CliRun badKind = CliRun.of("blob", "cat", "--kind", "inline");
        CliRun badPosition = CliRun.of("blob", "cat", "--kind", "external", "--uri", "file:///x", "--position", "-1");

        assertThat(missing.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(missing.err())
                .contains("needs --base, --set, --id and --size")
                .contains("Usage:");
        assertThat(badKind.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(badPosition.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
    }

    private byte[] cat(String... options) throws IOException {
        Path out = base.resolve("cat.out");
        String[] args = new String[options.length + 4];
        args[0] = "blob";
        args[1] = "cat";
        System.arraycopy(options, 0, args, 2, options.length);
        args[args.length - 2] = "--output";
        args[args.length - 1] = out.toString();
        CliRun run = CliRun.of(args);
        assertThat(run.exitCode()).as(run.err()).isZero();
        return Files.readAllBytes(out);
    }
}
