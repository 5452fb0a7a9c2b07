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
        return completed(checkpointDirectory, null).stream()
                .max(Comparator.comparingLong(Completed::modified).thenComparingLong(Completed::number))
                .map(Completed::directory);
    }

    /**
     * Requires that Flink has discarded the completed checkpoints of the finished job {@code jobId}
     * under {@code checkpointDirectory}, and the one it resumed from and claimed, if any. Flink
     * discards a finished job's checkpoints while its JobMaster shuts down, and only logs a deletion
     * that failed; a checkpoint left behind would be the next start's.
     *
     * @throws IllegalStateException naming the checkpoints still there
     */
    public static void requireDiscarded(URI checkpointDirectory, String jobId, Optional<URI> claimed) {
        List<URI> left = new ArrayList<>();
        completed(checkpointDirectory, jobId).forEach(c -> left.add(c.directory()));
        claimed.filter(RetainedCheckpoints::isCompleted)
                .filter(c -> !left.contains(c))
                .ifPresent(left::add);
        if (!left.isEmpty()) {
            throw new IllegalStateException("Flink shut down without discarding the checkpoints of the finished job "
                    + jobId + " (its log says why): " + left + " still there; the next start would resume from a"
                    + " checkpoint whose sources have finished: delete them, or start with --fresh");
        }
    }

    private static boolean isCompleted(URI checkpoint) {
        Path metadata = new Path(new Path(checkpoint), METADATA);
        try {
            return metadata.getFileSystem().exists(metadata);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot look for " + metadata, e);
        }
    }

    /** The completed checkpoints under the directory, of every job or (jobId not null) of one. */
    private static List<Completed> completed(URI checkpointDirectory, String jobId) {
        Path directory = new Path(checkpointDirectory);
        try {
            FileSystem fileSystem = directory.getFileSystem();
            List<Completed> completed = new ArrayList<>();
            if (!fileSystem.exists(directory)) {
                return completed;
            }
            for (FileStatus job : directories(fileSystem, directory)) {
                if (jobId != null && !job.getPath().getName().equals(jobId)) {
                    continue;
                }
                for (FileStatus checkpoint : directories(fileSystem, job.getPath())) {
                    String name = checkpoint.getPath().getName();
                    Path metadata = new Path(checkpoint.getPath(), METADATA);
                    if (name.startsWith(CHECKPOINT_PREFIX) && fileSystem.exists(metadata)) {
                        completed.add(new Completed(
                                checkpoint.getPath().toUri(),
                                fileSystem.getFileStatus(metadata).getModificationTime(),
                                number(name)));
                    }
                }
            }
            return completed;
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

    private record Completed(URI directory, long modified, long number) {}
}
