package io.blobingest.cli;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;

/**
 * An output directory a command owns: a marker file says the command made it, so that the next
 * run of the same command may empty it; a non-empty directory without the marker is never touched.
 */
public final class OwnedDirectory {

    private OwnedDirectory() {}

    /**
     * Makes {@code directory} empty but for the marker: creates it, or empties one that holds the
     * marker.
     *
     * @param marker the marker file's name
     * @param owner the command, for messages ("the demo")
     * @return the directory, absolute and normalised
     * @throws IllegalArgumentException if it is a file, or a non-empty directory without the marker
     */
    public static Path prepare(Path directory, String marker, String owner) throws IOException {
        Path absolute = directory.toAbsolutePath().normalize();
        if (Files.exists(absolute) && !Files.isDirectory(absolute)) {
            throw new IllegalArgumentException(absolute + " is a file, not a directory");
        }
        if (Files.isDirectory(absolute) && !isEmpty(absolute)) {
            if (!Files.exists(absolute.resolve(marker))) {
                throw new IllegalArgumentException(absolute + " is not empty and was not made by " + owner
                        + " (it has no " + marker + " file); choose another directory");
            }
            deleteContents(absolute);
        }
        Files.createDirectories(absolute);
        Files.writeString(
                absolute.resolve(marker), "Made by " + owner + ", which empties this directory when it runs again.\n");
        return absolute;
    }

    /** Deletes {@code subdirectory}, a directory inside an owned one, with everything in it. */
    public static void discard(Path subdirectory) throws IOException {
        deleteContents(subdirectory);
        Files.delete(subdirectory);
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
