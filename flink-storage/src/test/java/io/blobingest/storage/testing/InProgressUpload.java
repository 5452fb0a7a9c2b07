package io.blobingest.storage.testing;

/** A multipart upload that was initiated and neither completed nor aborted. */
public record InProgressUpload(String key, String uploadId) {}
