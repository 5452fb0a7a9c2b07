package io.blobingest.sink.manifest;

import java.io.IOException;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A descriptor manifest cannot be read: wrong schema, unknown spec version or required feature, or
 * a row that breaks the descriptor rules. The message names the manifest and, for a row, its index.
 */
@PublicEvolving
public final class ManifestFormatException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String location;

    ManifestFormatException(String location, String problem) {
        super(location + ": " + problem);
        this.location = location;
    }

    ManifestFormatException(String location, String problem, Throwable cause) {
        super(location + ": " + problem, cause);
        this.location = location;
    }

    /** The manifest's path or URI. */
    public String location() {
        return location;
    }
}
