package io.blobingest.job.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the newest complete checkpoint Flink retained under a checkpoint directory: {@code
 * <dir>/<job id>/chk-<n>/_metadata}. A checkpoint without {@code _metadata} was never completed
 * and is ignored.
 */
public final class RetainedCheckpoints {

    private static final String METADATA = "_metadata";

    private RetainedCheckpoints() {}

    public static Optional<Path> latest(Path checkpointDirectory) {
        if (!Files.isDirectory(checkpointDirectory)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.find(checkpointDirectory, 3,
                (path, attributes) -> attributes.isRegularFile()
                        && path.getFileName().toString().equals(METADATA)
                        && path.getParent().getFileName().toString().startsWith("chk-"))) {
            return files.max(Comparator.comparing(RetainedCheckpoints::modified)
                            .thenComparing(RetainedCheckpoints::checkpointNumber))
                    .map(Path::getParent);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list checkpoints under " + checkpointDirectory, e);
        }
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long checkpointNumber(Path metadata) {
        String name = metadata.getParent().getFileName().toString();
        try {
            return Long.parseLong(name.substring("chk-".length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
