package io.blobingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobDescriptor;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.DescriptorRow.Attribute;
import io.blobingest.sink.manifest.DescriptorManifestWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code descriptors show} over hand-made manifests. */
class DescriptorsCommandTest {

    private static final long ENTRY_0 = 0x8000_0000_0000_0000L;

    @TempDir
    Path base;

    @Test
    void showPrintsEveryRowOfEveryManifestUnderAStorageRoot() throws IOException {
        writeManifest(
                "set-a",
                List.of(
                        row(
                                "robot-1/imu/7".getBytes(StandardCharsets.UTF_8),
                                7,
                                BlobDescriptor.inline(3),
                                null,
                                new byte[] {1, 2, 3},
                                3_000_000_000L,
                                List.of(attribute("robot", "robot-1"), attribute("stream", "imu"))),
                        row(
                                new byte[] {0, (byte) 0xff, 0x10},
                                8,
                                BlobDescriptor.packed(ENTRY_0 + 1, 30_211, 1),
                                "set-a",
                                null,
                                42L,
                                List.of()),
                        row(
                                null,
                                9,
                                BlobDescriptor.dedicated(7_340_032, 2),
                                "set-a",
                                null,
                                7L,
                                List.of(attribute("tag", null))),
                        row(
                                "clip".getBytes(StandardCharsets.UTF_8),
                                10,
                                BlobDescriptor.external("file:///data/clip.mp4", 0, 0),
                                null,
                                null,
                                null,
                                List.of(new Attribute("raw", new byte[] {(byte) 0x80})))));

        CliRun run = CliRun.of("descriptors", "show", base.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("set-a.arrow: blob set set-a, 4 rows, required features blob_object_pack");
        assertThat(lines(run.out()))
                .containsSubsequence(
                        "key            source      kind       position             size     blob_id  uri            "
                                + "        crc32c      timestamp  attributes",
                        "robot-1/imu/7  blobs/0/7   inline     0                    3        0        -              "
                                + "        3000000000  -          robot=robot-1 stream=imu",
                        "0x00ff10       blobs/0/8   packed     9223372036854775809  30211    1        -              "
                                + "        42          -          -",
                        "(null)         blobs/0/9   dedicated  0                    7340032  2        -              "
                                + "        7           -          tag=(null)",
                        "clip           blobs/0/10  external   0                    0        0       "
                                + " file:///data/clip.mp4  -           -          raw=0x80");
    }

    @Test
    void showStopsAtTheLimitAcrossManifestsAndSaysWhatItLeftOut() throws IOException {
        writeManifest("set-a", List.of(inline(1), inline(2), inline(3)));
        writeManifest("set-b", List.of(inline(4)));

        CliRun run = CliRun.of(
                "descriptors",
                "show",
                "--limit",
                "2",
                base.resolve(BlobSets.DESCRIPTORS_DIRECTORY).toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("blobs/0/1", "blobs/0/2", "... 1 more rows", "... 1 more manifests")
                .doesNotContain("blobs/0/3", "blobs/0/4");
    }

    @Test
    void showReadsOneManifestFileAndIgnoresInProgressOnes() throws IOException {
        Path manifest = writeManifest("set-a", List.of(inline(1)));
        Files.writeString(manifest.resolveSibling(".set-b.arrow.inprogress.0f3a"), "not yet a manifest");

        CliRun file = CliRun.of("descriptors", "show", manifest.toString());
        CliRun directory = CliRun.of("descriptors", "show", base.toString());

        assertThat(file.exitCode()).as(file.err()).isZero();
        assertThat(file.out()).contains("blob set set-a, 1 rows").contains("blobs/0/1");
        assertThat(directory.exitCode()).as(directory.err()).isZero();
        assertThat(directory.out()).doesNotContain("inprogress");
    }

    @Test
    void showReportsAFileThatIsNoManifestAsAFault() throws IOException {
        Path bogus = Files.writeString(base.resolve("bogus.arrow"), "no arrow here");

        CliRun run = CliRun.of("descriptors", "show", bogus.toString());

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_FAULT);
        assertThat(run.err()).startsWith("error: ").contains(bogus.toString()).contains("not an Arrow IPC file");
        assertThat(run.err().lines()).as("one line, no stack trace").hasSize(1);
    }

    @Test
    void showRefusesAPathThatDoesNotExist() {
        CliRun run = CliRun.of("descriptors", "show", base.resolve("missing").toString());

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err()).contains("no such file or directory");
    }

    private Path writeManifest(String blobSet, List<DescriptorRow> rows) throws IOException {
        Path manifest = Path.of(BlobSets.manifestUri(base.toUri(), blobSet));
        Files.createDirectories(manifest.getParent());
        try (OutputStream out = Files.newOutputStream(manifest)) {
            DescriptorManifestWriter.write(blobSet, rows, out);
        }
        return manifest;
    }

    private static DescriptorRow inline(long offset) {
        return row(null, offset, BlobDescriptor.inline(1), null, new byte[] {9}, 1L, List.of());
    }

    private static DescriptorRow row(
            byte[] key,
            long offset,
            BlobDescriptor blob,
            String blobSet,
            byte[] inlineData,
            Long crc32c,
            List<Attribute> attributes) {
        return new DescriptorRow(key, "blobs", 0, offset, null, blob, blobSet, inlineData, crc32c, attributes);
    }

    private static Attribute attribute(String name, String value) {
        return new Attribute(name, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> lines(String text) {
        return text.lines().toList();
    }
}
