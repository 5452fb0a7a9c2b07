package io.blobingest.storage;

import io.blobingest.objectlayer.storage.ReadableObject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Behaviour that needs no plugin: Flink's built-in local file system. */
class FlinkFileSystemStorageTest {

    @TempDir Path directory;

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

    private URI write(String name, byte[] content) throws IOException {
        Path file = directory.resolve(name);
        Files.write(file, content);
        return file.toUri();
    }
}
