package io.blobingest.job.launch;

import java.util.List;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What every JVM running blob-ingest is started with: the {@code ./blob-ingest} launcher script,
 * the build's test JVMs ({@code test.argLine}) and the bench's child JVMs. The script and the
 * build cannot read Java constants, so {@code LaunchOptionsTest} checks that they say the same.
 */
@PublicEvolving
public final class LaunchOptions {

    /** Arrow (descriptor manifests, the Object Layer) needs reflective access to these packages. */
    public static final List<String> ADD_OPENS = List.of(
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED");

    /** The system property naming the Flink plugins directory shipped beside the jar (the S3 file system). */
    public static final String PLUGINS_DIR_PROPERTY = "blob-ingest.plugins-dir";

    private LaunchOptions() {}
}
