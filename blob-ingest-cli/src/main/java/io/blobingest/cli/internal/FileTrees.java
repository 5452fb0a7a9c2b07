package io.blobingest.cli.internal;

import io.blobingest.storage.DirectoryListing;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Recursive listings through Flink's {@link FileSystem}, for any scheme it serves: on S3 a
 * "directory" is a key prefix, listed one level per request.
 */
public final class FileTrees {

    private FileTrees() {}

    /**
     * Every file below {@code root}, or {@code root} itself if it is a file, sorted by path.
     *
     * @throws java.io.FileNotFoundException if {@code root} does not exist
     */
    public static List<FileStatus> files(Path root) throws IOException {
        FileSystem fileSystem = root.getFileSystem();
        FileStatus rootStatus = fileSystem.getFileStatus(root);
        List<FileStatus> files = new ArrayList<>();
        Deque<FileStatus> pending = new ArrayDeque<>();
        pending.push(rootStatus);
        while (!pending.isEmpty()) {
            FileStatus status = pending.pop();
            if (!status.isDir()) {
                files.add(status);
                continue;
            }
            for (FileStatus child : DirectoryListing.list(status.getPath())) {
                pending.push(child);
            }
        }
        files.sort(Comparator.comparing(status -> status.getPath().toString()));
        return files;
    }
}
