package io.blobingest.sink.internal.sharing;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.flink.annotation.Internal;

/**
 * What makes two blobs the same for exact sharing: their length and their SHA-256. A crc32c alone
 * is not an identity (collisions are easy to make); SHA-256 is the JDK's own, intrinsified on CPUs
 * with SHA extensions.
 *
 * @param size the blob's length in bytes
 * @param h0 bytes 0-7 of the SHA-256, big-endian; h1 to h3 the rest
 */
@Internal
public record ContentId(long size, long h0, long h1, long h2, long h3) {

    static final int DIGEST_LENGTH = 32;

    /** A fresh SHA-256 digest; one per writer, they are not thread-safe. */
    public static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    public static ContentId of(byte[] bytes, MessageDigest sha256) {
        sha256.reset();
        return of(bytes.length, sha256.digest(bytes));
    }

    public static ContentId of(long size, byte[] sha256) {
        if (sha256.length != DIGEST_LENGTH) {
            throw new IllegalArgumentException("a SHA-256 has " + DIGEST_LENGTH + " bytes, found " + sha256.length);
        }
        ByteBuffer digest = ByteBuffer.wrap(sha256);
        return new ContentId(size, digest.getLong(), digest.getLong(), digest.getLong(), digest.getLong());
    }

    /** The 32 bytes of the SHA-256, as {@link MessageDigest#digest()} gave them. */
    public byte[] sha256() {
        return ByteBuffer.allocate(DIGEST_LENGTH)
                .putLong(h0)
                .putLong(h1)
                .putLong(h2)
                .putLong(h3)
                .array();
    }
}
