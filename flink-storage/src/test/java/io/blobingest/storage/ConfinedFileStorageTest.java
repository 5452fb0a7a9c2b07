package io.blobingest.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code file:} objects opened under an allowed prefix with no link below it followed. There is no
 * check apart from the open: each swap below is made either before the open (refused) or after it,
 * between the open and the reads, where a check-then-read-by-path would read the swapped-in file.
 */
class ConfinedFileStorageTest {

    @TempDir
    Path dir;

    private Path allowed;
    private Path outside;
    private Path file;
    private byte[] content;
    private ConfinedFileStorage storage;

    @BeforeEach
    void files() throws IOException {
        allowed = Files.createDirectories(dir.resolve("allowed"));
        outside = Files.createDirectories(dir.resolve("outside").resolve("sub"));
        Files.write(outside.resolve("clip"), "secret".getBytes(UTF_8));
        content = new byte[70_000];
        new SplittableRandom(5).nextBytes(content);
        file = Files.write(Files.createDirectories(allowed.resolve("sub")).resolve("clip"), content);
        storage = new ConfinedFileStorage(List.of(allowed.toUri().toString(), "s3://bucket/"));
    }

    @Test
    void aNormalFileReadsByteExact() throws IOException {
        try (ReadableObject object = storage.open(file.toUri())) {
            assertThat(object.location()).isEqualTo(file.toUri().toString());
            assertThat(object.length()).isEqualTo(content.length);
            byte[] whole = new byte[content.length];
            object.readFully(0, whole, 0, whole.length);
            assertThat(whole).isEqualTo(content);
            byte[] range = new byte[1000];
            object.readFully(65_000, range, 0, range.length);
            assertThat(range).isEqualTo(Arrays.copyOfRange(content, 65_000, 66_000));
            assertThatThrownBy(() -> object.readFully(69_999, new byte[2], 0, 2))
                    .isInstanceOf(EOFException.class)
                    .hasMessage(file.toUri() + ": wanted 2 bytes at offset 69999, the object is 70000 bytes long");
        }
        storage.check(file.toUri());
    }

    @Test
    void aDirectoryBelowThePrefixThatIsASymbolicLinkIsRefusedWhereverItLeads() throws IOException {
        Files.createSymbolicLink(allowed.resolve("out"), outside);
        Files.createSymbolicLink(allowed.resolve("in"), allowed.resolve("sub"));

        for (String through : List.of("out", "in")) {
            URI location = allowed.resolve(through).resolve("clip").toUri();
            String refusal = location + ": expected a directory at " + through
                    + " below its allowed prefix, found a symbolic link; no link below an allowed file: prefix is"
                    + " followed";
            assertOpenAndCheckRefuse(location, refusal);
        }
    }

    @Test
    void aDirectorySwappedForASymbolicLinkAfterTheOpenLeavesTheReadsOnTheOpenedFile() throws IOException {
        assertReadsStayOnTheOpenedFileAfter(() -> {
            Files.move(allowed.resolve("sub"), dir.resolve("moved"));
            Files.createSymbolicLink(allowed.resolve("sub"), outside);
        });
        assertThatThrownBy(() -> storage.open(file.toUri())).isInstanceOf(RefusedFileException.class);
    }

    @Test
    void aFinalSymbolicLinkIsRefusedEvenOneThatStaysInside() throws IOException {
        Path out = Files.createSymbolicLink(allowed.resolve("out"), outside.resolve("clip"));
        Path in = Files.createSymbolicLink(allowed.resolve("in"), file);

        for (Path link : List.of(out, in)) {
            String refusal = link.toUri()
                    + ": expected a regular file, found a symbolic link; no link below an allowed file: prefix is"
                    + " followed";
            assertOpenAndCheckRefuse(link.toUri(), refusal);
        }
    }

    @Test
    void aFileSwappedForASymbolicLinkAfterTheOpenIsNotFollowedByTheReads() throws IOException {
        assertReadsStayOnTheOpenedFileAfter(() -> {
            Files.delete(file);
            Files.createSymbolicLink(file, outside.resolve("clip"));
        });
    }

    @Test
    void aFileWithASecondHardLinkIsRefused() throws IOException {
        Path hardLink = Files.createLink(allowed.resolve("hard-link"), outside.resolve("clip"));
        String refusal = hardLink.toUri() + " has 2 hard links, expected 1: another name of the same file may lie"
                + " outside every allowed directory";

        assertOpenAndCheckRefuse(hardLink.toUri(), refusal);
    }

    @Test
    void aFileSwappedForAHardLinkAfterTheOpenIsNotRead() throws IOException {
        assertReadsStayOnTheOpenedFileAfter(() -> {
            Files.delete(file);
            Files.createLink(file, outside.resolve("clip"));
        });
    }

    @Test
    void aPrefixThatIsASymbolicLinkIsTheOperatorsAndIsFollowed() throws IOException {
        Path linkedPrefix = Files.createSymbolicLink(dir.resolve("linked"), allowed);
        ConfinedFileStorage throughLink =
                new ConfinedFileStorage(List.of(linkedPrefix.toUri().toString()));

        try (ReadableObject object =
                throughLink.open(linkedPrefix.resolve("sub").resolve("clip").toUri())) {
            assertThat(readAll(object)).isEqualTo(content);
        }
    }

    @Test
    void aNestedPrefixIsWalkedFromItsOwnDirectory() throws IOException {
        Files.createSymbolicLink(allowed.resolve("mounted"), outside);
        ConfinedFileStorage nested = new ConfinedFileStorage(List.of(
                allowed.toUri().toString(), allowed.resolve("mounted").toUri().toString()));

        try (ReadableObject object =
                nested.open(allowed.resolve("mounted").resolve("clip").toUri())) {
            assertThat(readAll(object)).isEqualTo("secret".getBytes(UTF_8));
        }
    }

    @Test
    void aFileUnderNoAllowedPrefixIsRefused() {
        URI location = outside.resolve("clip").toUri();

        assertThatThrownBy(() -> storage.open(location))
                .isInstanceOf(RefusedFileException.class)
                .hasMessage(location + " lies under no allowed file: prefix");
        assertThatThrownBy(() -> new ConfinedFileStorage(List.of("s3://bucket/")).open(file.toUri()))
                .isInstanceOf(RefusedFileException.class);
    }

    @Test
    void aDotDotSegmentIsRefusedRatherThanWalkedUp() {
        URI location = URI.create(allowed.toUri() + "sub/../../outside/sub/clip");

        assertThatThrownBy(() -> storage.open(location))
                .isInstanceOf(RefusedFileException.class)
                .hasMessage(location + " has a '..' segment below its allowed prefix");
    }

    @Test
    void aMissingFileOrDirectoryIsNotFoundAndADirectoryIsNoObject() throws IOException {
        Files.createDirectories(allowed.resolve("empty"));
        for (URI missing : List.of(
                allowed.resolve("sub").resolve("missing").toUri(),
                allowed.resolve("missing").resolve("clip").toUri(),
                file.resolve("below-a-file").toUri())) {
            assertThatThrownBy(() -> storage.open(missing))
                    .isInstanceOf(FileNotFoundException.class)
                    .hasMessage(missing + " does not exist");
            assertThatThrownBy(() -> storage.check(missing))
                    .isInstanceOf(FileNotFoundException.class)
                    .hasMessage(missing + " does not exist");
        }
        for (Path directory : List.of(allowed, allowed.resolve("empty"))) {
            assertThatThrownBy(() -> storage.open(directory.toUri()))
                    .isInstanceOf(FileNotFoundException.class)
                    .hasMessageEndingWith(" is a directory, not an object");
        }
    }

    @Test
    void aFifoIsRefusedWithoutWaitingForAWriter() throws Exception {
        Path fifo = allowed.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor())
                .isZero();

        assertTimeoutPreemptively(
                Duration.ofSeconds(30),
                () -> assertThatThrownBy(() -> storage.open(fifo.toUri()))
                        .isInstanceOf(RefusedFileException.class)
                        .hasMessage(fifo.toUri()
                                + ": expected a regular file, found another kind of file (a FIFO, socket or device)"));
    }

    /** A change of the tree between the open and the reads, where a check-then-read-by-path would read it. */
    @FunctionalInterface
    private interface Swap {
        void make() throws IOException;
    }

    private void assertReadsStayOnTheOpenedFileAfter(Swap swap) throws IOException {
        try (ReadableObject object = storage.open(file.toUri())) {
            swap.make();

            assertThat(readAll(object)).isEqualTo(content);
        }
    }

    private void assertOpenAndCheckRefuse(URI location, String refusal) {
        assertThatThrownBy(() -> storage.open(location))
                .isInstanceOf(RefusedFileException.class)
                .hasMessage(refusal);
        assertThatThrownBy(() -> storage.check(location))
                .isInstanceOf(RefusedFileException.class)
                .hasMessage(refusal);
    }

    private static byte[] readAll(ReadableObject object) throws IOException {
        byte[] bytes = new byte[Math.toIntExact(object.length())];
        object.readFully(0, bytes, 0, bytes.length);
        return bytes;
    }
}
