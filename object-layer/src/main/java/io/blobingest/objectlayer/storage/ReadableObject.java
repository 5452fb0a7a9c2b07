package io.blobingest.objectlayer.storage;

import java.io.Closeable;
import java.io.IOException;

/** One stored object (a sidecar, an external file) opened for positional reads. */
public interface ReadableObject extends Closeable {

    /** Where the object lives, for error messages: a path or URI. */
    String location();

    /** The object's length in bytes. Metadata: reading it reads no payload. */
    long length() throws IOException;

    /**
     * Reads exactly {@code length} bytes starting at {@code position}.
     *
     * @throws java.io.EOFException if the object ends before {@code position + length}
     */
    void readFully(long position, byte[] buffer, int offset, int length) throws IOException;
}
