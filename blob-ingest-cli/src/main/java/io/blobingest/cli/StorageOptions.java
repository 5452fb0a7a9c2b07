package io.blobingest.cli;

import io.blobingest.job.launch.ConfigFiles;
import io.blobingest.job.launch.FlinkPlugins;
import io.blobingest.job.launch.Locations;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.storage.FlinkFileSystemStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Storage options of the commands that read what the job wrote: local paths are read directly,
 * other URIs ({@code s3://bucket/prefix}) through Flink's file systems, set up from {@code
 * --config} and {@code -D} ({@code s3.endpoint}, {@code s3.path.style.access}, {@code
 * s3.access-key}, {@code s3.secret-key}, ...) as for {@code run}.
 */
final class StorageOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(
            names = "--config",
            description = "A Flink YAML file with storage options (s3.endpoint, s3.access-key, ...).")
    Path configFile;

    @Option(
            names = "-D",
            paramLabel = "KEY=VALUE",
            description = "A storage option, e.g. -D s3.path.style.access=true.")
    Map<String, String> dynamicOptions = new LinkedHashMap<>();

    private boolean fileSystemsInitialized;

    /** The configuration from {@code --config} and {@code -D}, in that order of precedence. */
    Configuration configuration() throws IOException {
        Configuration config =
                configFile == null ? new Configuration() : ConfigFiles.load(configFile, spec.commandLine());
        dynamicOptions.forEach(config::setString);
        return config;
    }

    /** The storage that reads {@code location}: local disk, or Flink's file system for its scheme. */
    BlobStorage storageFor(String location) throws IOException {
        if (Locations.isLocal(location)) {
            return new LocalBlobStorage();
        }
        initializeFileSystems();
        return new FlinkFileSystemStorage();
    }

    /** Sets Flink's file systems up for non-local locations (once per command). */
    void initializeFileSystems() throws IOException {
        if (!fileSystemsInitialized) {
            FlinkPlugins.initializeFileSystems(configuration());
            fileSystemsInitialized = true;
        }
    }
}
