package io.blobingest.job.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.IllegalConfigurationException;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Loads a {@code --config} file: Flink YAML, read by Flink's own loader. */
@PublicEvolving
public final class ConfigFiles {

    private ConfigFiles() {}

    /**
     * @throws ParameterException for {@code commandLine} if the file is missing or not valid Flink YAML
     */
    public static Configuration load(Path file, CommandLine commandLine) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new ParameterException(commandLine, "--config: no such file: " + file);
        }
        // Flink's own YAML loader reads <dir>/config.yaml; give it exactly that file.
        Path directory = Files.createTempDirectory("blob-ingest-config");
        try {
            Files.copy(file, directory.resolve(GlobalConfiguration.FLINK_CONF_FILENAME));
            return GlobalConfiguration.loadConfiguration(directory.toString());
        } catch (IllegalConfigurationException e) {
            throw new ParameterException(commandLine, "--config " + file + ": " + e.getMessage());
        } finally {
            Files.deleteIfExists(directory.resolve(GlobalConfiguration.FLINK_CONF_FILENAME));
            Files.deleteIfExists(directory);
        }
    }
}
