package io.blobingest.storage;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Lists a directory that other writers change while it is read: a running job's manifests,
 * delivery markers or checkpoints.
 *
 * <p>Flink's local file system lists the names and then reads each one's status, so a file renamed
 * or deleted between the two fails the whole listing with a {@link FileNotFoundException}, the
 * same exception as a missing directory: a caller would either fail or, treating it as "nothing
 * here", see an empty directory where there are files. Here a local directory's entries are read
 * one by one and an entry that vanished in between is left out, as if it had gone just before the
 * listing. Object stores list in one request and have no such gap.
 */
@PublicEvolving
public final class DirectoryListing {

    private static final String LOCAL_SCHEME = "file";

    private DirectoryListing() {}

    /**
     * The entries of {@code directory}, files and directories; empty if it does not exist. An entry
     * renamed or deleted while it is listed may be missing, an entry that stays is always there.
     */
    public static List<FileStatus> list(Path directory) throws IOException {
        FileSystem fs = directory.getFileSystem();
        if (!LOCAL_SCHEME.equals(fs.getUri().getScheme())) {
            try {
                FileStatus[] statuses = fs.listStatus(directory);
                return statuses == null ? List.of() : Arrays.asList(statuses);
            } catch (FileNotFoundException e) {
                return List.of();
            }
        }
        List<String> names;
        try (Stream<java.nio.file.Path> children =
                Files.list(Paths.get(directory.makeQualified(fs).toUri()))) {
            names = children.map(child -> child.getFileName().toString()).toList();
        } catch (NoSuchFileException e) {
            return List.of();
        }
        List<FileStatus> statuses = new ArrayList<>(names.size());
        for (String name : names) {
            try {
                statuses.add(fs.getFileStatus(new Path(directory, name)));
            } catch (FileNotFoundException e) {
                // Renamed or deleted since the names were read.
            }
        }
        return statuses;
    }
}
