package io.blobingest.job.internal;

import io.blobingest.job.IngestJobOptions;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.flink.types.Either;

/**
 * The check of a {@code file:} object that the classifier cannot make without I/O: that the file
 * really lies under an allowed {@code file:} prefix. The classifier matched the URI's path as text,
 * but a symbolic link inside an allowed directory may lead anywhere, and so may a hard link. So the
 * path is resolved ({@link Path#toRealPath}) and must lie under the real path of an allowed
 * prefix, and a regular file must have one link only ({@code unix:nlink}): a second name of the
 * same file may lie outside, and no path tells where. Where the file system has no {@code unix}
 * attribute view, the link count is not checked (docs/external-blobs.md).
 *
 * <p>The fetch then reads the resolved path, so that a link changed after the check cannot
 * redirect it. Objects of any other scheme are read as named: their stores have no links.
 */
final class AllowedLocalFiles implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final String FILE_SCHEME = "file";

    private final List<String> filePrefixes;

    /** @param allowedPrefixes {@code external.allowed-prefixes}; only the {@code file:} ones count here */
    AllowedLocalFiles(List<String> allowedPrefixes) {
        List<String> files = new ArrayList<>();
        for (String prefix : allowedPrefixes) {
            if (prefix != null && prefix.toLowerCase(Locale.ROOT).startsWith(FILE_SCHEME + ":")) {
                files.add(prefix);
            }
        }
        this.filePrefixes = List.copyOf(files);
    }

    /**
     * Where to read {@code location} from ({@code Left}), or why it is not allowed ({@code Right},
     * a detail that names the location, never the file it leads to).
     *
     * @param location an {@link io.blobingest.placement.ExternalFetch#location()}, which the
     *     classifier found under an allowed prefix
     * @throws FileNotFoundException if the file, or the file a link leads to, does not exist
     */
    Either<URI, String> readableLocation(String location) throws IOException {
        URI uri = URI.create(location);
        if (!FILE_SCHEME.equalsIgnoreCase(uri.getScheme())) {
            return Either.Left(uri);
        }
        Path real;
        try {
            real = Paths.get(uri).toRealPath();
        } catch (NoSuchFileException e) {
            throw new FileNotFoundException(location + " does not exist");
        } catch (IllegalArgumentException e) {
            return Either.Right(location + " names no file of this machine (a file: URI with a host)");
        }
        if (!underAnAllowedPrefix(real)) {
            return Either.Right(location + " resolves, through a symbolic link, to a file outside every allowed "
                    + "file: prefix (" + IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES.key() + ")");
        }
        int links = linkCount(real);
        if (links > 1) {
            return Either.Right(location + " has " + links + " hard links; a file with more than one may be a file "
                    + "outside the allowed directory (" + IngestJobOptions.EXTERNAL_ALLOWED_PREFIXES.key() + ")");
        }
        return Either.Left(real.toUri());
    }

    private boolean underAnAllowedPrefix(Path real) throws IOException {
        for (String prefix : filePrefixes) {
            Path allowed;
            try {
                allowed = Paths.get(URI.create(prefix)).toRealPath();
            } catch (NoSuchFileException | IllegalArgumentException e) {
                continue; // nothing exists under a missing directory, nor under a prefix with a host
            }
            if (real.startsWith(allowed)) {
                return true;
            }
        }
        return false;
    }

    /** The hard links of a regular file; 1 where the file system cannot tell, and for anything else. */
    private static int linkCount(Path real) throws IOException {
        if (!Files.isRegularFile(real)) {
            return 1;
        }
        try {
            return (Integer) Files.getAttribute(real, "unix:nlink");
        } catch (UnsupportedOperationException e) {
            return 1;
        }
    }
}
