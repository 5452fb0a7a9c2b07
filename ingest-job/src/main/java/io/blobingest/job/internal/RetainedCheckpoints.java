package io.blobingest.job.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Finds the newest complete checkpoint Flink retained under a checkpoint directory, on any Flink
 * file system: {@code <dir>/<job id>/chk-<n>/_metadata}. A checkpoint without {@code _metadata} was
 * never completed and is ignored.
 */
public final class RetainedCheckpoints {

    private static final String METADATA = "_metadata";
    private static final String CHECKPOINT_PREFIX = "chk-";

    private RetainedCheckpoints() {}

    /** The newest completed checkpoint's directory; empty when there is none or the directory is missing. */
    public static Optional<URI> latest(URI checkpointDirectory) {
        Path directory = new Path(checkpointDirectory);
        try {
            FileSystem fileSystem = directory.getFileSystem();
            if (!fileSystem.exists(directory)) {
                return Optional.empty();
            }
            List<Completed> completed = new ArrayList<>();
            for (FileStatus job : directories(fileSystem, directory)) {
                for (FileStatus checkpoint : directories(fileSystem, job.getPath())) {
                    String name = checkpoint.getPath().getName();
                    Path metadata = new Path(checkpoint.getPath(), METADATA);
                    if (name.startsWith(CHECKPOINT_PREFIX) && fileSystem.exists(metadata)) {
                        completed.add(new Completed(
                                checkpoint.getPath(),
                                fileSystem.getFileStatus(metadata).getModificationTime(),
                                number(name)));
                    }
                }
            }
            return completed.stream()
                    .max(Comparator.comparingLong(Completed::modified).thenComparingLong(Completed::number))
                    .map(c -> c.directory().toUri());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list checkpoints under " + checkpointDirectory, e);
        }
    }

    private static List<FileStatus> directories(FileSystem fileSystem, Path directory) throws IOException {
        FileStatus[] statuses = fileSystem.listStatus(directory);
        List<FileStatus> directories = new ArrayList<>();
        if (statuses != null) {
            for (FileStatus status : statuses) {
                if (status.isDir()) {
                    directories.add(status);
                }
            }
        }
        return directories;
    }

    private static long number(String checkpointName) {
        try {
            return Long.parseLong(checkpointName.substring(CHECKPOINT_PREFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private record Completed(Path directory, long modified, long number) {}
}
