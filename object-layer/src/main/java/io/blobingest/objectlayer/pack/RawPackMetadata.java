package io.blobingest.objectlayer.pack;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.blobingest.objectlayer.BlobSets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a writer puts in a pack's metadata besides the counts: the blob set and sidecar id the pack
 * belongs to and who wrote it. {@code pack_type}, {@code pack_version} and {@code
 * required_features} are fixed by the format version.
 *
 * <p>The JSON is canonical (keys in the order of {@code docs/spec.md} section 2.2, no whitespace),
 * so the same pack content always has the same bytes. To keep that true for every writer, the
 * strings are restricted: {@code blob_set} as spec.md section 3 defines it, {@code created_by}
 * printable ASCII, so the only escapes JSON ever needs are {@code \"} and {@code \\}.
 *
 * @param blobSet the blob set the pack belongs to, {@value BlobSets#NAME_REGEX}
 * @param blobId the pack's sidecar id within the blob set, 1 to 2^32-1 (0 is reserved)
 * @param createdBy who wrote the pack, e.g. {@code blob-ingest/0.1.0}: 1 to 256 printable ASCII
 *     characters
 */
public record RawPackMetadata(String blobSet, long blobId, String createdBy) {

    private static final JsonFactory JSON = new JsonFactory();

    /** What a v1 writer declares a reader must understand. */
    public static final List<String> V1_REQUIRED_FEATURES = List.of(RawPackFormat.FEATURE_BLOB_OBJECT_PACK);

    private static final Pattern CREATED_BY = Pattern.compile("[\\x20-\\x7e]{1,256}");
    /** What {@link #isValidCreatedBy} accepts, for error messages. */
    public static final String CREATED_BY_RULE = "1 to 256 printable ASCII characters";

    public RawPackMetadata {
        Objects.requireNonNull(blobSet, "blobSet");
        Objects.requireNonNull(createdBy, "createdBy");
        BlobSets.requireValidName(blobSet);
        if (blobId < 1 || blobId > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("blob_id must be a sidecar id in [1, 2^32-1], found " + blobId);
        }
        if (!isValidCreatedBy(createdBy)) {
            throw new IllegalArgumentException(
                    "created_by must be " + CREATED_BY_RULE + ", found \"" + createdBy + '"');
        }
    }

    /** True if {@code createdBy} may be a pack's {@code created_by}: {@value #CREATED_BY_RULE}. */
    public static boolean isValidCreatedBy(String createdBy) {
        return CREATED_BY.matcher(createdBy).matches();
    }

    /**
     * The length of {@link #toJson(int, long) toJson(entryCount, payloadBytes)} without writing it,
     * given {@code lengthWithZeroCounts}, the length of {@code toJson(0, 0)}: the two counts are the
     * only parts that vary, each written as its decimal digits. For a writer that checks a size limit
     * before every append.
     */
    static int jsonLength(int lengthWithZeroCounts, int entryCount, long payloadBytes) {
        return lengthWithZeroCounts
                - 2
                + decimalLength(Integer.toUnsignedLong(entryCount))
                + decimalLength(payloadBytes);
    }

    private static int decimalLength(long value) {
        int length = value < 0 ? 2 : 1;
        for (long rest = value / 10; rest != 0; rest /= 10) {
            length++;
        }
        return length;
    }

    /** The metadata bytes of a pack with these counts that records no entry hashes. */
    public byte[] toJson(int entryCount, long payloadBytes) {
        return toJson(entryCount, payloadBytes, null);
    }

    /**
     * The metadata bytes of a pack with these counts and, unless {@code sha256s} is null, its
     * entries' SHA-256s as the last key, {@value RawPackFormat#META_ENTRY_SHA256}.
     */
    byte[] toJson(int entryCount, long payloadBytes, EntrySha256s sha256s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(192);
        try (JsonGenerator json = JSON.createGenerator(bytes)) {
            json.writeStartObject();
            json.writeStringField(RawPackFormat.META_PACK_TYPE, RawPackFormat.PACK_TYPE);
            json.writeNumberField(RawPackFormat.META_PACK_VERSION, RawPackFormat.PACK_VERSION);
            json.writeArrayFieldStart(RawPackFormat.META_REQUIRED_FEATURES);
            for (String feature : V1_REQUIRED_FEATURES) {
                json.writeString(feature);
            }
            json.writeEndArray();
            json.writeStringField(RawPackFormat.META_BLOB_SET, blobSet);
            json.writeNumberField(RawPackFormat.META_BLOB_ID, blobId);
            json.writeNumberField(RawPackFormat.META_ENTRY_COUNT, Integer.toUnsignedLong(entryCount));
            json.writeNumberField(RawPackFormat.META_PAYLOAD_BYTES, payloadBytes);
            json.writeStringField(RawPackFormat.META_CREATED_BY, createdBy);
            if (sha256s != null) {
                sha256s.writeField(json);
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write pack metadata JSON", e);
        }
        return bytes.toByteArray();
    }
}
