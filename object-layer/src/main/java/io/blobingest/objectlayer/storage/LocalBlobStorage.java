package io.blobingest.objectlayer.storage;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/** Reads objects on the local file system ({@code file:} URIs) with positional channel reads. */
public final class LocalBlobStorage implements BlobStorage {

    @Override
    public ReadableObject open(URI location) throws IOException {
        if (location.getScheme() != null && !"file".equals(location.getScheme())) {
            throw new IOException("local storage reads file: URIs only, found " + location);
        }
        Path path = location.getScheme() == null ? Path.of(location.getPath()) : Path.of(location);
        try {
            return new LocalObject(path, FileChannel.open(path, StandardOpenOption.READ));
        } catch (NoSuchFileException e) {
            FileNotFoundException notFound = new FileNotFoundException(path + " does not exist");
            notFound.initCause(e);
            throw notFound;
        }
    }

    private static final class LocalObject implements ReadableObject {
        private final Path path;
        private final FileChannel channel;

        LocalObject(Path path, FileChannel channel) {
            this.path = path;
            this.channel = channel;
        }

        @Override
        public String location() {
            return path.toString();
        }

        @Override
        public long length() throws IOException {
            return channel.size();
        }

        @Override
        public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
            long end = read(position, ByteBuffer.wrap(buffer, offset, length));
            if (end < position + length) {
                throw new EOFException(
                        path + ": wanted " + length + " bytes at offset " + position + ", the file ends at " + end);
            }
        }

        /**
         * One positional read per array target, straight into the array: the channel's position
         * stays untouched (the object may be shared by threads), and a hole costs nothing.
         */
        @Override
        public void readScattered(long position, List<ScatterTarget> targets) throws IOException {
            ScatterTarget.readEach(position, targets, (at, array, offset, length) -> {
                long end = read(at, ByteBuffer.wrap(array, offset, length));
                if (end < at + length) {
                    throw new EOFException(path + ": wanted " + ScatterTarget.totalLength(targets) + " bytes at offset "
                            + position + " (scattered into " + targets.size() + " targets), the file ends at "
                            + end);
                }
            });
        }

        /** Fills {@code target} from {@code position} on; returns where the bytes ended. */
        private long read(long position, ByteBuffer target) throws IOException {
            long at = position;
            while (target.hasRemaining()) {
                int n = channel.read(target, at);
                if (n < 0) {
                    break;
                }
                at += n;
            }
            return at;
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
