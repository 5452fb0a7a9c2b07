package io.blobingest.job.gc.internal;

import io.blobingest.storage.S3Options;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/**
 * Where and as whom {@link S3RestClient} talks to S3, read from the same Flink configuration keys
 * the S3 file system uses ({@code s3.endpoint}, {@code s3.path.style.access}, {@code
 * s3.access-key}, {@code s3.secret-key}, {@code fs.s3a.connection.ssl.enabled}), so that gc sees the
 * bucket the job wrote to.
 */
public record S3ClientSettings(URI endpoint, boolean pathStyle, String region, S3Credentials credentials) {

    /** S3A's region key, through the plugin's {@code s3.} prefix mapping. */
    static final ConfigOption<String> REGION = ConfigOptions.key("s3.endpoint.region")
            .stringType()
            .defaultValue("us-east-1")
            .withFallbackKeys("fs.s3a.endpoint.region");

    /**
     * @param environment where the AWS variables ({@code AWS_ACCESS_KEY_ID}, ...) are looked up when
     *     the configuration has no keys
     * @throws IOException if no credentials are configured
     */
    public static S3ClientSettings from(Configuration config, Map<String, String> environment) throws IOException {
        String region = config.get(REGION);
        boolean ssl = config.getOptional(S3Options.SSL_ENABLED).orElse(true);
        URI endpoint = config.getOptional(S3Options.ENDPOINT)
                .map(text -> URI.create(text.contains("://") ? text : (ssl ? "https://" : "http://") + text))
                .orElse(URI.create("https://s3." + region + ".amazonaws.com"));
        boolean pathStyle = config.getOptional(S3Options.PATH_STYLE_ACCESS).orElse(false);
        return new S3ClientSettings(endpoint, pathStyle, region, credentials(config, environment));
    }

    private static S3Credentials credentials(Configuration config, Map<String, String> environment) throws IOException {
        Optional<String> accessKey = config.getOptional(S3Options.ACCESS_KEY);
        Optional<String> secretKey = config.getOptional(S3Options.SECRET_KEY);
        if (accessKey.isPresent() && secretKey.isPresent()) {
            return new S3Credentials(accessKey.get(), secretKey.get(), Optional.empty());
        }
        String environmentAccessKey = environment.get("AWS_ACCESS_KEY_ID");
        String environmentSecretKey = environment.get("AWS_SECRET_ACCESS_KEY");
        if (environmentAccessKey != null && environmentSecretKey != null) {
            return new S3Credentials(environmentAccessKey, environmentSecretKey,
                    Optional.ofNullable(environment.get("AWS_SESSION_TOKEN")));
        }
        throw new IOException("gc on S3 needs static credentials: " + S3Options.ACCESS_KEY.key() + " and "
                + S3Options.SECRET_KEY.key() + " (--config or -D), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
                + " in the environment");
    }
}
