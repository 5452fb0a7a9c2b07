package io.blobingest.objectlayer.internal;

/** Bytes {@code [offset, offset + length)} of one object. */
public record ByteSpan(long offset, long length) {

    public long end() {
        return offset + length;
    }
}
