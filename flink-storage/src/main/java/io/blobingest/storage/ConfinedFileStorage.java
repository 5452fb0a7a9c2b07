package io.blobingest.storage;

import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadTuning;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.storage.internal.ChannelObject;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * {@link FlinkFileSystemStorage}, with {@code file:} objects confined to the allowed {@code file:}
 * prefixes. Such an object is opened by walking down from its prefix's directory one name at a
 * time, each directory and then the file opened relative to the one before without following a
 * symbolic link ({@link SecureDirectoryStream}; on Linux {@code openat} with {@code O_NOFOLLOW}),
 * so no link below the prefix leads the read elsewhere, whenever it is swapped in: a path through
 * one is refused. The check and the open are one step, and every read of the returned object goes
 * through the channel that step opened, never through the name again. The prefix itself and the
 * directories above it are the operator's: the file system resolves them as usual. Objects of any
 * other scheme are read as named: their stores have no links.
 *
 * <p>The file must be a regular file with one name ({@code unix:nlink} 1): another name of the
 * same file may lie outside every allowed directory, and nothing tells where.
 *
 * <p>What Java cannot check on the opened file: it has no {@code fstat} of an open channel. So the
 * type and identity ({@code fileKey}: device and inode) are read by name, through the parent
 * directory's descriptor and without following links, just before and just after the open, and
 * the link count by path, accepted only from a stat that names that same file. A name swapped to
 * a hard link of another file and back between those two reads goes unnoticed; Linux's {@code
 * fs.protected_hardlinks} (on by default in most distributions) keeps a user from hard-linking a
 * file they neither own nor can read and write. A FIFO swapped in between the type check and the open
 * makes the open wait for a writer (Java cannot open with {@code O_NONBLOCK}), deaf to interrupts:
 * callers give up on it at their timeouts, and its thread stays blocked until a writer comes. And
 * every directory from the prefix down must be readable by the job's user, not only searchable,
 * because Java opens each one to read it.
 *
 * <p>A file system without secure directory streams (no {@code openat}) reads no {@code file:}
 * object: each is refused.
 */
@PublicEvolving
public final class ConfinedFileStorage implements BlobStorage, Serializable {

    private static final long serialVersionUID = 1L;
    private static final String FILE_SCHEME = "file";
    private static final BlobStorage OTHER_SCHEMES = new FlinkFileSystemStorage();
    private static final String NO_LINKS = "no link below an allowed file: prefix is followed";

    private final List<String> filePrefixes;

    /** @param allowedPrefixes allowed URI prefixes ({@code external.allowed-prefixes}); the {@code file:} ones count */
    public ConfinedFileStorage(List<String> allowedPrefixes) {
        List<String> files = new ArrayList<>();
        for (String prefix : allowedPrefixes) {
            if (prefix != null && prefix.toLowerCase(Locale.ROOT).startsWith(FILE_SCHEME + ":")) {
                files.add(prefix);
            }
        }
        this.filePrefixes = List.copyOf(files);
    }

    /**
     * @throws RefusedFileException if {@code location} is a {@code file:} object this storage does
     *     not read (class javadoc)
     * @throws FileNotFoundException if it does not exist, or is a directory
     */
    @Override
    public ReadableObject open(URI location) throws IOException {
        if (!isFile(location)) {
            return OTHER_SCHEMES.open(location);
        }
        try (ParentDirectory parent = parentOf(location)) {
            return parent.openFile();
        } catch (NoSuchFileException | NotDirectoryException e) {
            throw doesNotExist(location, e);
        }
    }

    /**
     * Checks {@code location} as {@link #open} would, without opening the file: for a reference,
     * which readers read later, so the check holds for the moment it is made only.
     *
     * @throws RefusedFileException if {@link #open} would refuse it
     * @throws FileNotFoundException if it does not exist, or is a directory
     */
    public void check(URI location) throws IOException {
        if (!isFile(location)) {
            return;
        }
        try (ParentDirectory parent = parentOf(location)) {
            parent.checkFile();
        } catch (NoSuchFileException | NotDirectoryException e) {
            throw doesNotExist(location, e);
        }
    }

    @Override
    public ReadTuning readTuning(URI location) {
        return OTHER_SCHEMES.readTuning(location);
    }

    private static boolean isFile(URI location) {
        return FILE_SCHEME.equalsIgnoreCase(location.getScheme());
    }

    private static FileNotFoundException doesNotExist(URI location, IOException cause) {
        FileNotFoundException notFound = new FileNotFoundException(location + " does not exist");
        notFound.initCause(cause);
        return notFound;
    }

    /** Walks from the allowed prefix of {@code location} down to the directory that holds its file. */
    private ParentDirectory parentOf(URI location) throws IOException {
        Path path;
        try {
            path = Paths.get(location);
        } catch (IllegalArgumentException e) {
            throw new RefusedFileException(location + " names no file of this machine: " + e.getMessage());
        }
        Path prefix = allowedPrefixOf(path);
        if (prefix == null) {
            throw new RefusedFileException(location + " lies under no allowed file: prefix");
        }
        if (path.getNameCount() == prefix.getNameCount()) {
            throw new FileNotFoundException(location + " is a directory, not an object");
        }
        Path below = path.subpath(prefix.getNameCount(), path.getNameCount());
        for (Path name : below) {
            if (name.toString().equals(".") || name.toString().equals("..")) {
                throw new RefusedFileException(location + " has a '" + name + "' segment below its allowed prefix");
            }
        }
        DirectoryStream<Path> stream = Files.newDirectoryStream(prefix);
        if (!(stream instanceof SecureDirectoryStream<Path> directory)) {
            stream.close();
            throw new RefusedFileException(location + ": the file system of its allowed prefix cannot open a file "
                    + "without following links (it has no SecureDirectoryStream), so no file: object is read there");
        }
        try {
            for (int i = 0; i < below.getNameCount() - 1; i++) {
                Path name = below.getName(i);
                if (attributes(directory, name).isSymbolicLink()) {
                    throw new RefusedFileException(location + ": expected a directory at " + below.subpath(0, i + 1)
                            + " below its allowed prefix, found a symbolic link; " + NO_LINKS);
                }
                SecureDirectoryStream<Path> above = directory;
                directory = directory.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
                above.close();
            }
        } catch (IOException | RuntimeException e) {
            closeAfterFailure(directory, e);
            throw e;
        }
        return new ParentDirectory(location, path, directory, below.getFileName());
    }

    private Path allowedPrefixOf(Path path) {
        Path longest = null;
        for (String prefix : filePrefixes) {
            Path allowed;
            try {
                allowed = Paths.get(URI.create(prefix));
            } catch (IllegalArgumentException e) {
                continue; // a prefix with a host names no file of this machine
            }
            // The longest: a nested prefix may be a link of the operator's, which only it follows.
            if (path.startsWith(allowed) && (longest == null || allowed.getNameCount() > longest.getNameCount())) {
                longest = allowed;
            }
        }
        return longest;
    }

    private static BasicFileAttributes attributes(SecureDirectoryStream<Path> directory, Path name) throws IOException {
        return directory
                .getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .readAttributes();
    }

    private static void closeAfterFailure(AutoCloseable closeable, Throwable failure) {
        try {
            closeable.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }

    /** The directory that holds a {@code file:} object's file, opened by the walk, and the file's name in it. */
    private static final class ParentDirectory implements AutoCloseable {

        private final URI location;
        private final Path path;
        private final SecureDirectoryStream<Path> directory;
        private final Path name;

        ParentDirectory(URI location, Path path, SecureDirectoryStream<Path> directory, Path name) {
            this.location = location;
            this.path = path;
            this.directory = directory;
            this.name = name;
        }

        ReadableObject openFile() throws IOException {
            Object identity = checkFile();
            SeekableByteChannel channel =
                    directory.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
            try {
                if (!identity.equals(attributes(directory, name).fileKey())) {
                    throw new RefusedFileException(location + " was replaced while it was opened: expected the "
                            + "file checked before the open, found another");
                }
                return new ChannelObject(location.toString(), channel);
            } catch (IOException | RuntimeException e) {
                closeAfterFailure(channel, e);
                throw e;
            }
        }

        /** Refuses anything but a regular file with one name; returns its identity ({@code fileKey}). */
        Object checkFile() throws IOException {
            BasicFileAttributes attributes = attributes(directory, name);
            if (attributes.isSymbolicLink()) {
                throw new RefusedFileException(
                        location + ": expected a regular file, found a symbolic link; " + NO_LINKS);
            }
            if (attributes.isDirectory()) {
                throw new FileNotFoundException(location + " is a directory, not an object");
            }
            if (!attributes.isRegularFile()) {
                throw new RefusedFileException(
                        location + ": expected a regular file, found another kind of file (a FIFO, socket or device)");
            }
            // No view of the directory's descriptor has the link count: read by path, and only
            // believed if that stat found the same file.
            Map<String, Object> unix = Files.readAttributes(path, "unix:fileKey,nlink", LinkOption.NOFOLLOW_LINKS);
            if (!attributes.fileKey().equals(unix.get("fileKey"))) {
                throw new RefusedFileException(location + " was replaced while it was checked: expected the file "
                        + "found below its allowed prefix, found another by its path");
            }
            int links = (Integer) unix.get("nlink");
            if (links > 1) {
                throw new RefusedFileException(location + " has " + links + " hard links, expected 1: another name "
                        + "of the same file may lie outside every allowed directory");
            }
            return attributes.fileKey();
        }

        @Override
        public void close() throws IOException {
            directory.close();
        }
    }
}
