package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.TestPacks.ascii;
import static io.blobingest.objectlayer.pack.TestPacks.bytes;
import static io.blobingest.objectlayer.pack.TestPacks.flipBit;
import static io.blobingest.objectlayer.pack.TestPacks.truncate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code interop/rawpack.py} implements spec.md section 2 a second time, from docs/spec.md alone. Packs
 * cross between the two implementations both ways, byte-exact, and both reject damaged packs with
 * the same message.
 */
class RawPackInteropTest {

    private static Path script;

    @TempDir
    Path dir;

    @BeforeAll
    static void findPython() throws IOException, InterruptedException {
        assumeTrue(pythonAvailable(), "python3 is not on PATH");
        script = locateScript();
    }

    @Test
    void pythonWrittenPackIsReadByJavaByteExactAndMatchesTheJavaWriter() throws Exception {
        byte[][] contents = {bytes(100_000, 11), ascii("hello"), new byte[0], bytes(100_000, 11), ascii("bye")};
        List<String> args = new ArrayList<>(List.of(
                "write",
                "--blob-set",
                "set-1",
                "--blob-id",
                "7",
                "--created-by",
                "blob-ingest-test",
                dir.resolve("py.blob").toString()));
        for (int i = 0; i < contents.length; i++) {
            Path file = dir.resolve("in-" + i);
            Files.write(file, contents[i]);
            args.add(file.toString());
        }

        Result result = python(args);

        assertThat(result.exitCode).as(result.stderr).isZero();
        List<String> lines = result.stdout.lines().toList();
        assertThat(lines).hasSize(contents.length);
        try (ReadableObject pack =
                new LocalBlobStorage().open(dir.resolve("py.blob").toUri())) {
            RawPackFooter footer = RawPackReader.withAllFeatures().readFooter(pack);
            assertThat(footer.entryCount()).isEqualTo(contents.length);
            for (int i = 0; i < contents.length; i++) {
                assertThat(lines.get(i))
                        .startsWith(i + " " + Long.toUnsignedString(RawPackFormat.entryReference(i)) + " ");
                byte[] entry = new byte[(int) footer.entryLength(i)];
                pack.readFully(footer.entryOffset(i), entry, 0, entry.length);
                assertThat(entry).as("entry %d", i).isEqualTo(contents[i]);
            }
            assertThat(footer.entryOffset(3)).as("equal contents shared").isEqualTo(footer.entryOffset(0));
            assertThat(new RawPackVerifier(RawPackReader.withAllFeatures()).verify(pack))
                    .isEmpty();
        }

        ByteArrayOutputStream java = new ByteArrayOutputStream();
        RawPackWriter writer = RawPackWriter.create(java, TestPacks.METADATA);
        long first = writer.append(contents[0]);
        writer.append(contents[1]);
        writer.append(contents[2]);
        writer.appendShared(first);
        writer.append(contents[4]);
        writer.finish();
        assertThat(Files.readAllBytes(dir.resolve("py.blob")))
                .as("canonical bytes")
                .isEqualTo(java.toByteArray());
    }

    @Test
    void javaWrittenPackWithLargeFooterAndSharedEntriesIsReadByPythonByteExact() throws Exception {
        List<byte[]> expected = new ArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RawPackWriter writer = RawPackWriter.create(out, TestPacks.METADATA);
        long big = writer.append(bytes(100_000, 12));
        expected.add(bytes(100_000, 12));
        for (int i = 1; i < 3000; i++) {
            if (i % 100 == 0) {
                writer.appendShared(big);
                expected.add(bytes(100_000, 12));
            } else {
                byte[] payload = bytes(i % 9, i);
                writer.append(payload);
                expected.add(payload);
            }
        }
        writer.finish();
        Path pack = dir.resolve("java.blob");
        Files.write(pack, out.toByteArray());
        long footerStart = RawPackReader.withAllFeatures()
                .readFooter(new RecordingObject("java", out.toByteArray()))
                .footerStart();
        assertThat(out.size() - footerStart).as("footer + tail").isGreaterThan(64 * 1024);

        Path extracted = dir.resolve("out");
        Result result = python(List.of("read", pack.toString(), extracted.toString()));

        assertThat(result.exitCode).as(result.stderr).isZero();
        assertThat(result.stdout.lines()).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(Files.readAllBytes(extracted.resolve(i + ".bin")))
                    .as("entry %d", i)
                    .isEqualTo(expected.get(i));
        }
    }

    @Test
    void javaWrittenPackWithEntryHashesIsReadByPythonWhichIgnoresTheKey() throws Exception {
        byte[][] contents = {bytes(70_000, 13), ascii("hello"), new byte[0]};
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RawPackWriter writer = RawPackWriter.create(out, TestPacks.METADATA, true);
        long first = writer.append(contents[0]);
        writer.append(contents[1]);
        writer.append(contents[2]);
        writer.appendShared(first);
        writer.finish();
        Path pack = dir.resolve("hashed.blob");
        Files.write(pack, out.toByteArray());

        Path extracted = dir.resolve("out");
        Result result = python(List.of("read", pack.toString(), extracted.toString()));

        assertThat(result.exitCode).as(result.stderr).isZero();
        assertThat(result.stdout.lines()).hasSize(4);
        for (int i = 0; i < 4; i++) {
            assertThat(Files.readAllBytes(extracted.resolve(i + ".bin")))
                    .as("entry %d", i)
                    .isEqualTo(contents[i % 3]);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("damagedPacks")
    void pythonAndJavaRejectADamagedPackWithTheSameMessage(byte[] damaged) throws Exception {
        Path pack = dir.resolve("damaged.blob");
        Files.write(pack, damaged);
        List<PackFault> javaFaults;
        try (ReadableObject object = new LocalBlobStorage().open(pack.toUri())) {
            javaFaults = new RawPackVerifier(RawPackReader.withAllFeatures()).verify(object);
        }

        Result result =
                python(List.of("read", pack.toString(), dir.resolve("out").toString()));

        assertThat(javaFaults).isNotEmpty();
        assertThat(result.exitCode).isEqualTo(1);
        assertThat(result.stderr.strip()).isEqualTo(javaFaults.get(0).message());
        assertThat(result.stderr)
                .contains(pack.toString(), " at offset " + javaFaults.get(0).offset() + ": expected ");
    }

    static Stream<Arguments> damagedPacks() throws IOException {
        byte[] pack = TestPacks.write(ascii("first payload"), new byte[0], ascii("third"));
        long footerStart = 16 + 13 + 5;
        long tailStart = pack.length - 32;
        String features = "\"required_features\":[\"blob_object_pack\"]";
        return Stream.of(
                damaged("payload bit flip", flipBit(pack, 16 + 13 + 1, 3)),
                damaged("entry table bit flip", flipBit(pack, footerStart + 9, 0)),
                damaged("tail footer_start bit flip", flipBit(pack, tailStart, 1)),
                damaged("tail footer_start high bit flip", flipBit(pack, tailStart + 7, 7)),
                damaged("tail crc bit flip", flipBit(pack, tailStart + 17, 5)),
                damaged("tail version bit flip", flipBit(pack, tailStart + 20, 2)),
                damaged("tail flags bit flip", flipBit(pack, tailStart + 22, 0)),
                damaged("truncated mid-table", truncate(pack, footerStart + 30)),
                damaged("truncated below 48 bytes", truncate(pack, 40)),
                damaged("bad header magic", flipBit(pack, 2, 6)),
                damaged("header version", flipBit(pack, 8, 1)),
                damaged("header reserved", flipBit(pack, 13, 0)),
                damaged(
                        "unknown pack_type",
                        new HandBuiltPack()
                                .entry(ascii("x"))
                                .metadata("{\"pack_type\":\"zip\",\"pack_version\":1," + features + "}")
                                .build()),
                damaged(
                        "pack_version as a string",
                        new HandBuiltPack()
                                .metadata("{\"pack_type\":\"raw\",\"pack_version\":\"1\"," + features + "}")
                                .build()),
                damaged(
                        "unknown required feature",
                        new HandBuiltPack()
                                .metadata("{\"pack_type\":\"raw\",\"pack_version\":1,"
                                        + "\"required_features\":[\"blob_object_pack\",\"zstd\"]}")
                                .build()),
                damaged(
                        "entry_count disagrees",
                        new HandBuiltPack()
                                .entry(ascii("x"))
                                .metadata(
                                        "{\"pack_type\":\"raw\",\"pack_version\":1," + features + ",\"entry_count\":3}")
                                .build()),
                damaged(
                        "payload_bytes disagrees",
                        new HandBuiltPack()
                                .entry(ascii("x"))
                                .metadata("{\"pack_type\":\"raw\",\"pack_version\":1," + features
                                        + ",\"payload_bytes\":3}")
                                .build()),
                damaged(
                        "entry out of bounds",
                        new HandBuiltPack()
                                .payload(ascii("abc"))
                                .row(16, -1L, 0, 0)
                                .build()),
                damaged(
                        "entry flags",
                        new HandBuiltPack()
                                .payload(ascii("abc"))
                                .row(16, 3, 0, 4)
                                .build()));
    }

    private static Arguments damaged(String name, byte[] pack) {
        return Arguments.of(Named.of(name, pack));
    }

    private record Result(int exitCode, String stdout, String stderr) {}

    private static Result python(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("python3", script.toString()));
        command.addAll(args);
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        CompletableFuture<String> stdout = drain(process.getInputStream());
        CompletableFuture<String> stderr = drain(process.getErrorStream());
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("rawpack.py did not finish: " + command);
        }
        return new Result(process.exitValue(), stdout.join(), stderr.join());
    }

    private static CompletableFuture<String> drain(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try (in) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static boolean pythonAvailable() throws InterruptedException {
        try {
            Process process = new ProcessBuilder("python3", "--version")
                    .redirectErrorStream(true)
                    .start();
            process.getInputStream().readAllBytes();
            return process.waitFor(1, TimeUnit.MINUTES) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** The script lives at the repository root; tests run in the module directory. */
    private static Path locateScript() {
        for (Path at = Path.of("").toAbsolutePath(); at != null; at = at.getParent()) {
            Path candidate = at.resolve("interop").resolve("rawpack.py");
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError(
                "interop/rawpack.py not found above " + Path.of("").toAbsolutePath());
    }
}
