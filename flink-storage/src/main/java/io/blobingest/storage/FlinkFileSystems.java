package io.blobingest.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.stream.Collectors;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.DirectoryBasedPluginFinder;
import org.apache.flink.core.plugin.PluginDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets up Flink's process-wide {@link FileSystem} for a process that is not a Flink cluster
 * entrypoint (a launcher, a tool, a test): file systems come from Flink plugins, the S3 one from
 * {@code <plugins root>/s3-fs-hadoop/flink-s3-fs-hadoop-*.jar}, configured by
 * {@link S3Options#withDefaults S3 defaults} plus the given configuration.
 *
 * <p>The S3 file system must be a plugin: its jar bundles unrelocated Hadoop, AWS SDK, Guava and
 * Jackson that break other libraries when put on the application classpath.
 */
@PublicEvolving
public final class FlinkFileSystems {

    /** Directory name of the S3 plugin below the plugins root, as in Flink's distribution. */
    public static final String S3_PLUGIN_DIRECTORY = "s3-fs-hadoop";

    private static final String S3_FACTORY_CLASS = "org.apache.flink.fs.s3hadoop.S3FileSystemFactory";

    private static final Logger LOG = LoggerFactory.getLogger(FlinkFileSystems.class);

    private FlinkFileSystems() {}

    /**
     * (Re)initialises Flink's file systems for this JVM: afterwards {@link FileSystem#get} serves
     * every scheme of the plugins under {@code pluginsRoot} plus the built-in ones ({@code file:}).
     *
     * @throws IllegalArgumentException if {@code pluginsRoot} is not a directory
     * @throws IllegalStateException if the S3 file system is on the application classpath
     */
    public static void initialize(Configuration configuration, Path pluginsRoot) {
        if (!Files.isDirectory(pluginsRoot)) {
            throw new IllegalArgumentException(
                    "Flink plugins root " + pluginsRoot.toAbsolutePath() + " is not a directory");
        }
        rejectS3FileSystemOnClasspath();
        Configuration effective = S3Options.withDefaults(configuration);
        Collection<PluginDescriptor> plugins = findPlugins(pluginsRoot);
        FileSystem.initialize(
                effective,
                new DefaultPluginManager(plugins, CoreOptions.getPluginParentFirstLoaderPatterns(effective)));
        LOG.info(
                "Flink file systems initialised with plugins {} from {}; S3: {}",
                plugins.stream().map(PluginDescriptor::getPluginId).collect(Collectors.toList()),
                pluginsRoot.toAbsolutePath(),
                S3Options.describe(effective));
    }

    private static Collection<PluginDescriptor> findPlugins(Path pluginsRoot) {
        try {
            return new DirectoryBasedPluginFinder(pluginsRoot).findPlugins();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list Flink plugins under " + pluginsRoot.toAbsolutePath(), e);
        }
    }

    private static void rejectS3FileSystemOnClasspath() {
        try {
            Class.forName(S3_FACTORY_CLASS, false, FlinkFileSystems.class.getClassLoader());
        } catch (ClassNotFoundException expected) {
            return;
        }
        throw new IllegalStateException("flink-s3-fs-hadoop is on the application classpath ("
                + S3_FACTORY_CLASS
                + " found); load it only as a plugin from <plugins root>/"
                + S3_PLUGIN_DIRECTORY
                + "/, see docs/storage.md");
    }
}
