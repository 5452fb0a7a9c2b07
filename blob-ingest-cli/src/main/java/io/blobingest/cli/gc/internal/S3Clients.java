package io.blobingest.cli.gc.internal;

import io.blobingest.storage.S3Options;
import java.net.URI;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * An AWS SDK S3 client for the bucket the job wrote to, from the Flink configuration keys the S3
 * file system reads ({@code s3.endpoint}, {@code s3.path.style.access}, {@code s3.access-key},
 * {@code s3.secret-key}, {@code s3.endpoint.region}, {@code fs.s3a.connection.ssl.enabled}).
 * Without static keys it uses the SDK's default credential chain (environment, system properties,
 * profile files, web identity, container and instance profiles); retries are the SDK's default
 * retry strategy ({@code AWS_RETRY_MODE}, {@code AWS_MAX_ATTEMPTS} tune it).
 */
public final class S3Clients {

    /** What a custom endpoint is signed for when no region is configured, as S3A does. */
    private static final Region DEFAULT_REGION = Region.US_EAST_1;

    private S3Clients() {}

    /**
     * @throws IllegalArgumentException if only one of the two static keys is configured
     */
    public static S3Client from(Configuration config) {
        Optional<URI> endpoint = endpoint(config);
        S3ClientBuilder builder = S3Client.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(credentials(config))
                .forcePathStyle(config.getOptional(S3Options.PATH_STYLE_ACCESS).orElse(false))
                .region(region(config, endpoint.isPresent()));
        // On AWS a bucket outside the signing region answers with a redirect the client can follow.
        endpoint.ifPresentOrElse(builder::endpointOverride, () -> builder.crossRegionAccessEnabled(true));
        return builder.build();
    }

    private static Optional<URI> endpoint(Configuration config) {
        boolean ssl = config.getOptional(S3Options.SSL_ENABLED).orElse(true);
        return config.getOptional(S3Options.ENDPOINT)
                .map(text -> URI.create(text.contains("://") ? text : (ssl ? "https://" : "http://") + text));
    }

    private static Region region(Configuration config, boolean customEndpoint) {
        Optional<Region> configured = config.getOptional(S3Options.REGION).map(Region::of);
        if (configured.isPresent() || customEndpoint) {
            return configured.orElse(DEFAULT_REGION);
        }
        try {
            return new DefaultAwsRegionProviderChain().getRegion();
        } catch (SdkClientException noRegionFound) {
            return DEFAULT_REGION; // cross-region access finds the bucket's own region
        }
    }

    private static AwsCredentialsProvider credentials(Configuration config) {
        Optional<String> accessKey = config.getOptional(S3Options.ACCESS_KEY);
        Optional<String> secretKey = config.getOptional(S3Options.SECRET_KEY);
        if (accessKey.isPresent() != secretKey.isPresent()) {
            throw new IllegalArgumentException("S3 static credentials need both " + S3Options.ACCESS_KEY.key()
                    + " and " + S3Options.SECRET_KEY.key() + ", only "
                    + (accessKey.isPresent() ? S3Options.ACCESS_KEY : S3Options.SECRET_KEY).key() + " is set");
        }
        if (accessKey.isPresent()) {
            return StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey.get(), secretKey.get()));
        }
        return DefaultCredentialsProvider.builder().build();
    }
}
