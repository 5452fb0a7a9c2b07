package io.blobingest.storage;

import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/**
 * The Flink configuration keys of the S3 file system (the {@code flink-s3-fs-hadoop} plugin) that
 * blob-ingest relies on. The plugin copies every key starting with {@code s3.}, {@code s3a.} or
 * {@code fs.s3a.} into Hadoop's S3A configuration as {@code fs.s3a.<rest>}, so any S3A option can
 * be given in the same Flink {@link Configuration}.
 *
 * <p>The plugin reads raw keys, never {@link ConfigOption} defaults: {@link #withDefaults} writes
 * the defaults below into the configuration explicitly.
 */
@PublicEvolving
public final class S3Options {

    public static final ConfigOption<String> ENDPOINT = ConfigOptions.key("s3.endpoint")
            .stringType()
            .noDefaultValue()
            .withDescription("S3 endpoint URL; unset means AWS.");

    /** S3A's region key, through the plugin's {@code s3.} prefix mapping. */
    public static final ConfigOption<String> REGION = ConfigOptions.key("s3.endpoint.region")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys("fs.s3a.endpoint.region")
            .withDescription("Region to sign for; unset means the AWS region chain.");

    public static final ConfigOption<Boolean> PATH_STYLE_ACCESS = ConfigOptions.key("s3.path.style.access")
            .booleanType()
            .noDefaultValue()
            .withDescription("Address buckets as endpoint/bucket instead of bucket.endpoint.");

    public static final ConfigOption<String> ACCESS_KEY = ConfigOptions.key("s3.access-key")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys("s3.access.key")
            .withDescription("Static access key; unset means the AWS credential chain.");

    public static final ConfigOption<String> SECRET_KEY = ConfigOptions.key("s3.secret-key")
            .stringType()
            .noDefaultValue()
            .withFallbackKeys("s3.secret.key")
            .withDescription("Static secret key. Never logged.");

    public static final ConfigOption<Boolean> SSL_ENABLED = ConfigOptions.key("fs.s3a.connection.ssl.enabled")
            .booleanType()
            .noDefaultValue()
            .withDescription("Use TLS; false for a plain http:// endpoint.");

    /**
     * {@code keep}: S3A's default ({@code delete}) probes and deletes parent directory markers
     * after every write, which against an S3 without markers cost about 10 s per object here.
     */
    public static final ConfigOption<String> DIRECTORY_MARKER_RETENTION = ConfigOptions.key(
                    "fs.s3a.directory.marker.retention")
            .stringType()
            .defaultValue("keep")
            .withDescription("Keep parent directory markers instead of deleting them on every write.");

    /**
     * {@code random}: every positioned read is one ranged GET of {@code max(length, readahead)}
     * bytes. S3A's default ({@code normal}) starts sequential, so the first read of a stream asks
     * for everything up to the end of the object.
     */
    public static final ConfigOption<String> INPUT_FADVISE = ConfigOptions.key("fs.s3a.experimental.input.fadvise")
            .stringType()
            .defaultValue("random")
            .withDescription("S3A read policy: random = one bounded ranged GET per read.");

    /** Minimum bytes one GET asks for; S3A's default is 64K. */
    public static final ConfigOption<String> READAHEAD_RANGE = ConfigOptions.key("fs.s3a.readahead.range")
            .stringType()
            .noDefaultValue()
            .withDescription("Minimum size of a ranged GET (S3A default 64K).");

    private static final List<ConfigOption<String>> DEFAULTED = List.of(DIRECTORY_MARKER_RETENTION, INPUT_FADVISE);

    private S3Options() {}

    /** A copy of {@code configuration} with blob-ingest's S3 defaults set where no value is given. */
    public static Configuration withDefaults(Configuration configuration) {
        Configuration result = new Configuration(configuration);
        for (ConfigOption<String> option : DEFAULTED) {
            if (!configuration.contains(option)) {
                result.set(option, option.defaultValue());
            }
        }
        return result;
    }

    /** The S3 settings in effect, for logs: never the secret, never the access key. */
    public static String describe(Configuration configuration) {
        String credentials = configuration.contains(ACCESS_KEY) ? "static keys" : "AWS credential chain";
        return String.join(
                ", ",
                "endpoint=" + configuration.getOptional(ENDPOINT).orElse("(AWS default)"),
                "path-style=" + valueOrDefault(configuration, PATH_STYLE_ACCESS),
                "ssl=" + valueOrDefault(configuration, SSL_ENABLED),
                "credentials=" + credentials,
                INPUT_FADVISE.key() + "=" + configuration.get(INPUT_FADVISE),
                READAHEAD_RANGE.key() + "=" + valueOrDefault(configuration, READAHEAD_RANGE),
                DIRECTORY_MARKER_RETENTION.key() + "=" + configuration.get(DIRECTORY_MARKER_RETENTION));
    }

    private static String valueOrDefault(Configuration configuration, ConfigOption<?> option) {
        return configuration.getOptional(option).map(String::valueOf).orElse("(default)");
    }
}
