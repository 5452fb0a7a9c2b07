package io.blobingest.placement;

import io.blobingest.objectlayer.DescriptorRow.Attribute;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * The Kafka header vocabulary of spec.md section 4, in one place, and how its values are encoded:
 * UTF-8 text, numbers as unsigned decimal strings.
 */
public final class BlobHeaders {

    /** Input: the blob lives at this absolute URI instead of in the value. */
    public static final String URI = "blob.uri";
    /** Input: {@link #MODE_INGEST} (default) or {@link #MODE_REFERENCE}. */
    public static final String MODE = "blob.mode";
    /** Input: byte offset in the external object; descriptor: the descriptor's position. */
    public static final String POSITION = "blob.position";
    /** Input: byte length in the external object; descriptor: the descriptor's size. */
    public static final String SIZE = "blob.size";

    public static final String MODE_INGEST = "ingest";
    public static final String MODE_REFERENCE = "reference";

    /** Descriptor: the {@code BlobKind} value. */
    public static final String KIND = "blob.kind";
    /** Descriptor: the sidecar id. */
    public static final String ID = "blob.id";
    /** Descriptor: the blob set of the sidecar, absent for Inline and External. */
    public static final String SET = "blob.set";
    /** Descriptor: crc32c of the logical bytes, absent for an External reference. */
    public static final String CRC32C = "blob.crc32c";
    /** Descriptor: comma-separated reader features, empty when none are needed. */
    public static final String FEATURES = "blob.features";
    /** Descriptor: {@code topic/partition/offset} of the input record. */
    public static final String SOURCE = "blob.source";
    /** Descriptor: the input record's Kafka timestamp in milliseconds, absent when it had none. */
    public static final String TIMESTAMP = "blob.timestamp";

    /** Dead letter: the error code. */
    public static final String ERROR = "blob.error";
    /** Dead letter: the error explained for people. */
    public static final String ERROR_DETAIL = "blob.error.detail";

    /**
     * Every header name spec.md section 4 gives a meaning to. An input header with one of these names
     * is never passed through, so it cannot be mistaken for one the pipeline writes.
     */
    public static final Set<String> RESERVED =
            Set.of(URI, MODE, POSITION, SIZE, KIND, ID, SET, CRC32C, FEATURES, SOURCE, TIMESTAMP, ERROR, ERROR_DETAIL);

    private BlobHeaders() {}

    /**
     * The last header named {@code name} among {@code headers} (Kafka's {@code lastHeader}), or null
     * if there is none: a header without a value is returned, so absent and valueless differ.
     */
    public static Attribute last(List<Attribute> headers, String name) {
        for (int i = headers.size() - 1; i >= 0; i--) {
            if (headers.get(i).name().equals(name)) {
                return headers.get(i);
            }
        }
        return null;
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Strict UTF-8 decoding: malformed bytes are an error, never replaced. */
    public static String decodeUtf8(byte[] value) throws CharacterCodingException {
        CharBuffer chars = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(value));
        return chars.toString();
    }

    public static byte[] unsignedDecimal(long value) {
        return utf8(Long.toUnsignedString(value));
    }

    /**
     * Parses an unsigned 64-bit decimal: ASCII digits only, no sign, no blanks.
     *
     * @throws NumberFormatException naming what was found
     */
    public static long parseUnsignedDecimal(byte[] value) {
        if (value == null || value.length == 0) {
            throw new NumberFormatException(
                    "expected a decimal u64, found " + (value == null ? "no value" : "an empty value"));
        }
        for (byte b : value) {
            if (b < '0' || b > '9') {
                throw new NumberFormatException("expected a decimal u64, found " + printable(value));
            }
        }
        try {
            return Long.parseUnsignedLong(new String(value, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            throw new NumberFormatException("expected a decimal u64, found " + printable(value) + " (above 2^64 - 1)");
        }
    }

    /**
     * A header value quoted for an error message: short, printable ASCII only. Used for values that
     * are meant to be numbers or keywords, never for URIs (they may carry secrets) or payloads.
     */
    public static String printable(byte[] value) {
        if (value == null) {
            return "no value";
        }
        int shown = Math.min(value.length, 32);
        StringBuilder text = new StringBuilder(shown + 16).append('\'');
        for (int i = 0; i < shown; i++) {
            int b = value[i] & 0xFF;
            text.append(b >= 0x20 && b < 0x7F ? (char) b : '?');
        }
        text.append('\'');
        if (value.length > shown) {
            text.append(" (")
                    .append(value.length)
                    .append(" bytes, first ")
                    .append(shown)
                    .append(" shown)");
        }
        return text.toString();
    }
}
