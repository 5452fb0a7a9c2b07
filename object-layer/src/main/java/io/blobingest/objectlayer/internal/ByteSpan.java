package io.blobingest.objectlayer.internal;

/** Bytes {@code [offset, offset + length)} of one object. */
record ByteSpan(long offset, long length) {

    long end() {
        return offset + length;
    }
}
