package io.blobingest.job.gc.internal;

import java.util.Optional;

/** Static S3 credentials; {@link #toString()} never shows the keys. */
public record S3Credentials(String accessKey, String secretKey, Optional<String> sessionToken) {

    @Override
    public String toString() {
        return "S3Credentials[static keys" + (sessionToken.isPresent() ? " with session token" : "") + "]";
    }
}
