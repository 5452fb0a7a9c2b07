package io.blobingest.cli.gc.internal;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;

/**
 * The two S3 calls Flink's file system has no API for, ListMultipartUploads and
 * AbortMultipartUpload, through the AWS SDK. SDK failures become {@link IOException}s naming the
 * bucket and key; the SDK signs in headers, so its messages carry no credentials.
 */
public final class MultipartUploads implements AutoCloseable {

    /** An upload that was initiated and neither completed nor aborted. */
    public record Upload(String key, String uploadId, Optional<Instant> initiated) {}

    private final S3Client s3;

    public MultipartUploads(S3Client s3) {
        this.s3 = s3;
    }

    /** Every multipart upload in progress in {@code bucket} whose key starts with {@code prefix}. */
    public List<Upload> list(String bucket, String prefix) throws IOException {
        List<Upload> uploads = new ArrayList<>();
        try {
            for (MultipartUpload upload : s3.listMultipartUploadsPaginator(
                            request -> request.bucket(bucket).prefix(prefix))
                    .uploads()) {
                // Filtered here too: some S3 implementations ignore the prefix parameter.
                if (upload.key().startsWith(prefix)) {
                    uploads.add(new Upload(upload.key(), upload.uploadId(), Optional.ofNullable(upload.initiated())));
                }
            }
        } catch (SdkException e) {
            throw new IOException(
                    "S3 ListMultipartUploads of s3://" + bucket + "/" + prefix + " failed: " + e.getMessage(), e);
        }
        return uploads;
    }

    /**
     * Aborts one upload: its parts are deleted, the key is left as it is.
     *
     * @return false if there was no such upload any more (aborted or completed since it was listed)
     */
    public boolean abort(String bucket, String key, String uploadId) throws IOException {
        try {
            s3.abortMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId));
            return true;
        } catch (NoSuchUploadException e) {
            return false;
        } catch (SdkException e) {
            throw new IOException(
                    "S3 AbortMultipartUpload of s3://" + bucket + "/" + key + " upload " + uploadId + " failed: "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public void close() {
        s3.close();
    }
}
