package io.blobingest.objectlayer.storage;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

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

    /**
     * Reads the bytes from {@code position} on into {@code targets}, one after the other: the
     * first target gets the bytes at {@code position}, the next those right after, and a hole's
     * bytes are skipped. An implementation makes this one request where its storage allows (one
     * ranged GET on S3), and puts the bytes straight into the arrays, so that the caller needs no
     * buffer of the whole span. This default reads each array target with {@link #readFully}.
     *
     * @throws java.io.EOFException if the object ends before the last target's end; the message
     *     names the object and the offset
     */
    default void readScattered(long position, List<ScatterTarget> targets) throws IOException {
        ScatterTarget.readEach(position, targets, this::readFully);
    }
}
