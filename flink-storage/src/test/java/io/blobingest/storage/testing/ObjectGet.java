package io.blobingest.storage.testing;

/**
 * One GET the S3 server answered.
 *
 * @param key the object key
 * @param range the requested byte range as in the HTTP {@code Range} header without
 *     {@code bytes=} ({@code "100-199"}, inclusive), or empty for the whole object
 */
public record ObjectGet(String key, String range) {

    /** Bytes the GET asked for: the range's size, or {@code objectLength} for a whole-object GET. */
    public long requestedBytes(long objectLength) {
        if (range.isEmpty()) {
            return objectLength;
        }
        String[] bounds = range.split("-", 2);
        if (bounds[0].isEmpty()) {
            return Long.parseLong(bounds[1]);
        }
        long first = Long.parseLong(bounds[0]);
        long last = bounds[1].isEmpty() ? objectLength - 1 : Math.min(Long.parseLong(bounds[1]), objectLength - 1);
        return last - first + 1;
    }
}
