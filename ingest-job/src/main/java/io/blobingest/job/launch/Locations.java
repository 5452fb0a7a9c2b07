package io.blobingest.job.launch;

import java.net.URI;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.apache.flink.annotation.PublicEvolving;

/** Locations given on the command line: a local path, or a URI such as {@code s3://bucket/prefix}. */
@PublicEvolving
public final class Locations {

    private static final Pattern WITH_SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*://.*");

    private Locations() {}

    /** A plain path becomes an absolute {@code file:} URI; a URI with a scheme is kept. */
    public static URI toUri(String location) {
        if (WITH_SCHEME.matcher(location).matches()) {
            return URI.create(location);
        }
        return Path.of(location).toAbsolutePath().normalize().toUri();
    }

    /** True for a plain path or a {@code file:} URI: storage this JVM reads without Flink's plugins. */
    public static boolean isLocal(String location) {
        return "file".equalsIgnoreCase(toUri(location).getScheme());
    }

    /** The local path of a location for which {@link #isLocal} holds. */
    static Path toPath(String location) {
        return Path.of(toUri(location));
    }
}
