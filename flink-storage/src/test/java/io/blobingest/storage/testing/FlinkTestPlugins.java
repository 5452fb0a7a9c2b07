package io.blobingest.storage.testing;

import io.blobingest.storage.FlinkFileSystems;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Where a test finds the Flink plugins root that Maven prepared: system property
 * {@value #PROPERTY}, else {@code target/flink-plugins} of the module under test.
 */
public final class FlinkTestPlugins {

    public static final String PROPERTY = "flink.plugins.dir";

    private FlinkTestPlugins() {}

    /**
     * The plugins root, checked to hold the S3 plugin jar.
     *
     * @throws IllegalStateException if the jar is missing, saying how the build provides it
     */
    public static Path root() {
        Path root =
                Path.of(System.getProperty(PROPERTY, "target/flink-plugins")).toAbsolutePath();
        Path s3 = root.resolve(FlinkFileSystems.S3_PLUGIN_DIRECTORY);
        if (!containsJar(s3)) {
            throw new IllegalStateException(
                    "no flink-s3-fs-hadoop jar in " + s3 + "; the module's pom must copy it there"
                            + " with maven-dependency-plugin:copy (see docs/storage.md)"
                            + " and the tests must run through Maven");
        }
        return root;
    }

    private static boolean containsJar(Path directory) {
        if (!Files.isDirectory(directory)) {
            return false;
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.anyMatch(file -> file.getFileName().toString().endsWith(".jar"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
    }
}
