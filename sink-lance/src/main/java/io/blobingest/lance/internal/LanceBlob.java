package io.blobingest.lance.internal;

/**
 * The value of one row's Blob v2 column as Lance's writer takes it: either bytes for Lance to
 * store ({@code data}) or a reference ({@code uri}, and a byte range unless the whole object).
 */
record LanceBlob(byte[] data, String uri, Long position, Long size) {

    static LanceBlob bytes(byte[] data) {
        return new LanceBlob(data, null, null, null);
    }

    static LanceBlob range(String uri, long position, long size) {
        return new LanceBlob(null, uri, position, size);
    }

    static LanceBlob wholeObject(String uri) {
        return new LanceBlob(null, uri, null, null);
    }
}
