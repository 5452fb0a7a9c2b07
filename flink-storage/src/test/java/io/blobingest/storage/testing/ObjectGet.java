package io.blobingest.storage.testing;

/**
 * One GET the S3 server answered.
 *
 * @param key the object key
 * @param range the requested byte range as in the HTTP {@code Range} header without
 *     {@code bytes=} ({@code "100-199"}, inclusive), or empty for the whole object
 */
public record ObjectGet(String key, String range) {}
