package io.blobingest.job.launch;

import io.blobingest.storage.FlinkFileSystems;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.Configuration;

/**
 * Where this process finds Flink's plugins (the S3 file system): the directory named by the system
 * property {@value LaunchOptions#PLUGINS_DIR_PROPERTY}, which the {@code ./blob-ingest} launcher sets to the
 * {@code flink-plugins} directory shipped beside {@code blob-ingest.jar}.
 */
@PublicEvolving
public final class FlinkPlugins {

    private FlinkPlugins() {}

    static Optional<Path> directory() {
        String directory = System.getProperty(LaunchOptions.PLUGINS_DIR_PROPERTY);
        return directory == null || directory.isBlank() ? Optional.empty() : Optional.of(Path.of(directory));
    }

    /**
     * Initialises Flink's process-wide file systems with {@code config} (S3 endpoint, credentials,
     * ...) and the plugins directory. Without the property nothing is changed: under {@code flink
     * run} the Flink client has set its file systems up already, and a plain JVM keeps Flink's
     * built-in ones ({@code file:}).
     */
    public static void initializeFileSystems(Configuration config) {
        directory().ifPresent(plugins -> FlinkFileSystems.initialize(config, plugins));
    }
}
