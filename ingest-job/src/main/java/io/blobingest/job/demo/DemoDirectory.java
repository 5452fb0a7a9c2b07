package io.blobingest.job.demo;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;

/**
 * The demo's output directory: the job's storage root, with the allow-listed directory of the
 * External records' files beside the blob sets ({@code _external}: a blob set name never has an
 * underscore). A marker file says the demo made it, so that a later demo may empty it; a directory
 * without the marker is never touched.
 */
public final class DemoDirectory {

    static final String MARKER = ".blob-ingest-demo";
    static final String EXTERNAL = "_external";

    private final Path base;

    private DemoDirectory(Path base) {
        this.base = base;
    }

    /**
     * Makes {@code base} an empty demo directory: creates it, or empties one an earlier demo made.
     *
     * @throws IllegalArgumentException if it is a file, or a non-empty directory without the marker
     */
    public static DemoDirectory prepare(Path base) throws IOException {
        Path absolute = base.toAbsolutePath().normalize();
        if (Files.exists(absolute) && !Files.isDirectory(absolute)) {
            throw new IllegalArgumentException(absolute + " is a file, not a directory");
        }
        if (Files.isDirectory(absolute) && !isEmpty(absolute)) {
            if (!Files.exists(absolute.resolve(MARKER))) {
                throw new IllegalArgumentException(absolute + " is not empty and was not made by the demo (it has no "
                        + MARKER + " file); choose another --base");
            }
            deleteContents(absolute);
        }
        Files.createDirectories(absolute);
        Files.writeString(absolute.resolve(MARKER), "Made by ./blob-ingest demo, which empties this directory when it runs again.\n");
        return new DemoDirectory(absolute);
    }

    /** The storage root: blob sets and {@code _descriptors}. */
    public Path base() {
        return base;
    }

    /** Where the External records' files are; the demo allow-lists exactly this directory. */
    public Path externalDirectory() {
        return base.resolve(EXTERNAL);
    }

    private static boolean isEmpty(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.findAny().isEmpty();
        }
    }

    private static void deleteContents(Path directory) throws IOException {
        Files.walkFileTree(directory, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                if (failure != null) {
                    throw failure;
                }
                if (!dir.equals(directory)) {
                    Files.delete(dir);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
