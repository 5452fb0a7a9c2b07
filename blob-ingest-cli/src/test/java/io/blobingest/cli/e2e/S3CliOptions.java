package io.blobingest.cli.e2e;

import io.blobingest.storage.testing.S3ServerExtension;
import java.util.ArrayList;
import java.util.List;

/** Command lines that reach a test's S3 server the way a user's reach theirs: with -D options. */
final class S3CliOptions {

    private S3CliOptions() {}

    /** {@code args}, then the server's endpoint, credentials and buffer directory as -D options. */
    static String[] withS3Options(S3ServerExtension s3, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        s3.flinkConfiguration().toMap().forEach((key, value) -> all.addAll(List.of("-D", key + "=" + value)));
        return all.toArray(String[]::new);
    }
}
