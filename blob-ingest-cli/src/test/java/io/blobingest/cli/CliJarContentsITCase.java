package io.blobingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The command line's jar the package phase built ({@code target/blob-ingest.jar}) ships the demo's
 * broker but no test code: test-kit and JUnit stay with the tests.
 */
class CliJarContentsITCase {

    private static List<String> entries;

    @BeforeAll
    static void openJar() throws IOException {
        Path jar = Path.of("target/blob-ingest.jar");
        assertThat(jar).as("the command line's jar, built by the package phase").isRegularFile();
        try (JarFile file = new JarFile(jar.toFile())) {
            entries = file.stream().map(ZipEntry::getName).toList();
        }
    }

    @Test
    void holdsTheCommandsAndTheDemosBroker() {
        assertThat(entries)
                .contains(
                        "io/blobingest/cli/BlobIngestCli.class",
                        "io/blobingest/cli/DemoCommand.class",
                        "io/blobingest/broker/EmbeddedKafkaBroker.class",
                        "kafka/server/BrokerServer.class");
    }

    @Test
    void holdsNoTestCode() {
        assertThat(entries)
                .as("entries of test-kit or JUnit")
                .filteredOn(entry -> entry.startsWith("io/blobingest/testkit/")
                        || entry.startsWith("org/junit/")
                        || entry.startsWith("org/assertj/"))
                .isEmpty();
    }
}
