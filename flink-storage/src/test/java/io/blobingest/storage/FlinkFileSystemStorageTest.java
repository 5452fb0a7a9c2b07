package io.blobingest.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.objectlayer.storage.ScatterTarget;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Behaviour that needs no plugin: Flink's built-in local file system. */
class FlinkFileSystemStorageTest {

    @TempDir
    Path directory;

    private final FlinkFileSystemStorage storage = new FlinkFileSystemStorage();

    @Test
    void directoryIsNotAnObject() {
        URI uri = directory.toUri();

        assertThatThrownBy(() -> storage.open(uri))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessage(uri + " is a directory, not an object");
    }

    @Test
    void unknownSchemeNamesTheUri() {
        URI uri = URI.create("nosuchscheme://bucket/object.blob");

        assertThatThrownBy(() -> storage.open(uri))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("no Flink file system can open " + uri + ": ");
    }

    @Test
    void emptyReadAtTheEndReadsNothing() throws IOException {
        URI uri = write("empty-read.blob", new byte[] {1, 2, 3});

        try (ReadableObject object = storage.open(uri)) {
            byte[] buffer = {9};
            object.readFully(3, buffer, 0, 0);
            assertThat(buffer).containsExactly(9);
        }
    }

    @Test
    void emptyObjectHasLengthZero() throws IOException {
        URI uri = write("empty.blob", new byte[0]);

        try (ReadableObject object = storage.open(uri)) {
            assertThat(object.length()).isZero();
        }
    }

    @Test
    void negativePositionIsRejectedNamingTheUri() throws IOException {
        URI uri = write("negative.blob", new byte[10]);

        try (ReadableObject object = storage.open(uri)) {
            assertThatThrownBy(() -> object.readFully(-1, new byte[1], 0, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(uri + ": negative read position -1");
        }
    }

    @Test
    void rangeOutsideTheBufferIsRejected() throws IOException {
        URI uri = write("buffer.blob", new byte[10]);

        try (ReadableObject object = storage.open(uri)) {
            assertThatThrownBy(() -> object.readFully(0, new byte[4], 2, 3))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void readAfterCloseFailsNamingTheUri() throws IOException {
        URI uri = write("closed.blob", new byte[10]);
        ReadableObject object = storage.open(uri);
        object.close();

        assertThatThrownBy(() -> object.readFully(0, new byte[1], 0, 1))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(uri + ": reading 1 bytes at offset 0 failed: the object is closed");
    }

    @Test
    void objectDeletedAfterOpenIsFileNotFoundNamingUriAndRange() throws IOException {
        URI uri = write("deleted.blob", new byte[10]);

        try (ReadableObject object = storage.open(uri)) {
            Files.delete(Path.of(uri));
            assertThatThrownBy(() -> object.readFully(2, new byte[3], 0, 3))
                    .isInstanceOf(FileNotFoundException.class)
                    .hasMessageStartingWith(uri + ": reading 3 bytes at offset 2 failed: ");
        }
    }

    @Test
    void scatteredReadFillsEachArrayAndSkipsTheHolesAtTheStartAndInTheMiddle() throws IOException {
        byte[] content = content(1000);
        URI uri = write("scattered.blob", content);
        byte[] first = new byte[100];
        byte[] second = new byte[300];

        try (ReadableObject object = storage.open(uri)) {
            object.readScattered(
                    50,
                    List.of(
                            ScatterTarget.skip(10),
                            ScatterTarget.into(first, 0, 100),
                            ScatterTarget.skip(40),
                            ScatterTarget.into(second, 100, 200)));
        }

        assertThat(first).isEqualTo(Arrays.copyOfRange(content, 60, 160));
        assertThat(Arrays.copyOfRange(second, 100, 300)).isEqualTo(Arrays.copyOfRange(content, 200, 400));
        assertThat(Arrays.copyOfRange(second, 0, 100)).containsOnly(0);
    }

    @Test
    void scatteredReadPastTheEndIsEofNamingUriOffsetAndLength() throws IOException {
        URI uri = write("scattered-short.blob", content(1000));

        try (ReadableObject object = storage.open(uri)) {
            List<ScatterTarget> targets = List.of(
                    ScatterTarget.into(new byte[100], 0, 100),
                    ScatterTarget.skip(600),
                    ScatterTarget.into(new byte[200], 0, 200));
            assertThatThrownBy(() -> object.readScattered(250, targets))
                    .isInstanceOf(EOFException.class)
                    .hasMessage(uri + ": wanted 900 bytes at offset 250 (scattered into 3 targets),"
                            + " the object is 1000 bytes long");
        }
    }

    @Test
    void objectTruncatedAfterOpenIsEofInTheMiddleOfAScatteredReadNamingUriAndOffsets() throws IOException {
        URI uri = write("truncated.blob", content(1000));

        try (ReadableObject object = storage.open(uri)) {
            try (FileChannel file = FileChannel.open(Path.of(uri), StandardOpenOption.WRITE)) {
                file.truncate(500);
            }
            List<ScatterTarget> targets = List.of(
                    ScatterTarget.into(new byte[300], 0, 300),
                    ScatterTarget.skip(100),
                    ScatterTarget.into(new byte[400], 0, 400));
            assertThatThrownBy(() -> object.readScattered(0, targets))
                    .isInstanceOf(EOFException.class)
                    .hasMessage(uri + ": reading 800 bytes at offset 0 (scattered into 3 targets)"
                            + " failed: the object ended at offset 500");
        }
    }

    private static byte[] content(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }

    private URI write(String name, byte[] content) throws IOException {
        Path file = directory.resolve(name);
        Files.write(file, content);
        return file.toUri();
    }
}
