package io.blobingest.objectlayer.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalBlobStorageTest {

    @TempDir
    Path root;

    private final byte[] content = content(1000);

    private static byte[] content(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }

    private ReadableObject open(byte[] bytes) throws IOException {
        return new LocalBlobStorage()
                .open(Files.write(root.resolve("object.bin"), bytes).toUri());
    }

    @Test
    void scatteredReadFillsEachArrayAndSkipsTheHolesAtTheStartAndInTheMiddle() throws IOException {
        byte[] first = new byte[100];
        byte[] second = new byte[300];
        Arrays.fill(second, (byte) -1);

        try (ReadableObject object = open(content)) {
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
        assertThat(Arrays.copyOfRange(second, 0, 100)).as("outside the target").containsOnly((byte) -1);
    }

    @Test
    void aSuppliedArrayIsAskedForWhenItsBytesAreAboutToArrive() throws IOException {
        byte[] first = new byte[100];
        byte[][] firstWhenSecondWasAsked = new byte[1][];

        try (ReadableObject object = open(content)) {
            object.readScattered(
                    0,
                    List.of(
                            ScatterTarget.into(() -> first, 0, 100),
                            ScatterTarget.skip(10),
                            ScatterTarget.into(
                                    () -> {
                                        firstWhenSecondWasAsked[0] = first.clone();
                                        return new byte[50];
                                    },
                                    0,
                                    50)));
        }

        assertThat(firstWhenSecondWasAsked[0]).isEqualTo(Arrays.copyOfRange(content, 0, 100));
    }

    @Test
    void scatteredReadPastTheEndIsEofNamingTheFileTheOffsetAndWhereTheFileEnds() throws IOException {
        Path file = root.resolve("object.bin");
        byte[] tail = new byte[200];

        try (ReadableObject object = open(content)) {
            List<ScatterTarget> targets = List.of(
                    ScatterTarget.into(new byte[100], 0, 100),
                    ScatterTarget.skip(600),
                    ScatterTarget.into(tail, 0, 200));
            assertThatThrownBy(() -> object.readScattered(250, targets))
                    .isInstanceOf(EOFException.class)
                    .hasMessage(file
                            + ": wanted 900 bytes at offset 250 (scattered into 3 targets), the file ends at 1000");
        }
        assertThat(Arrays.copyOfRange(tail, 0, 50))
                .as("read up to the end")
                .isEqualTo(Arrays.copyOfRange(content, 950, 1000));
    }

    @Test
    void readPastTheEndIsEofNamingTheFileTheOffsetAndWhereTheFileEnds() throws IOException {
        Path file = root.resolve("object.bin");

        try (ReadableObject object = open(content)) {
            assertThatThrownBy(() -> object.readFully(990, new byte[20], 0, 20))
                    .isInstanceOf(EOFException.class)
                    .hasMessage(file + ": wanted 20 bytes at offset 990, the file ends at 1000");
        }
    }
}
