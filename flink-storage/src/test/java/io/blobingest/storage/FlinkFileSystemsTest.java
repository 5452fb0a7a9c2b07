package io.blobingest.storage;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlinkFileSystemsTest {

    @AfterEach
    void resetFileSystems() {
        FileSystem.initialize(new Configuration(), null);
    }

    @Test
    void rejectsAPluginsRootThatIsNoDirectory(@TempDir Path directory) {
        Path missing = directory.resolve("no-plugins-here");

        assertThatThrownBy(() -> FlinkFileSystems.initialize(new Configuration(), missing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Flink plugins root " + missing + " is not a directory");
    }

    @Test
    void withoutTheS3PluginAnS3UriNamesTheMissingPlugin(@TempDir Path emptyPluginsRoot) {
        FlinkFileSystems.initialize(new Configuration(), emptyPluginsRoot);
        URI uri = URI.create("s3://bucket/object.blob");

        assertThatThrownBy(() -> new FlinkFileSystemStorage().open(uri))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("no Flink file system can open " + uri + ": ")
                .hasMessageContaining("flink-s3-fs-hadoop");
    }
}
