package io.blobingest.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.storage.testing.FlakyFileSystem;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.core.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test file system other modules use to inject read failures works as they assume. */
class FlakyFileSystemTest {

    @TempDir
    Path directory;

    @Test
    void flinkServesTheFlakySchemeFromTheServiceRegistration() throws IOException {
        assertThat(FileSystem.get(URI.create("flaky:///tmp"))).isInstanceOf(FlakyFileSystem.class);
    }

    @Test
    void armedStreamsFailAfterTheGivenBytesThenReadsWorkAgain() throws IOException {
        Path file = Files.write(directory.resolve("object"), new byte[] {1, 2, 3, 4, 5});
        URI uri = FlakyFileSystem.uri(file);
        FlakyFileSystem.failReads(file, 1, 2);
        FlinkFileSystemStorage storage = new FlinkFileSystemStorage();

        try (ReadableObject object = storage.open(uri)) {
            assertThat(object.length()).isEqualTo(5);
            assertThatThrownBy(() -> object.readFully(0, new byte[5], 0, 5))
                    .hasMessageContaining("injected read failure of " + file + " after 2 bytes");
        }
        assertThat(FlakyFileSystem.remainingFailures(file)).isZero();
        try (ReadableObject object = storage.open(uri)) {
            byte[] bytes = new byte[5];
            object.readFully(0, bytes, 0, 5);
            assertThat(bytes).containsExactly(1, 2, 3, 4, 5);
        }
    }
}
