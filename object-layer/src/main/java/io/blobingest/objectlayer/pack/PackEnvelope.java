package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.PackTexts.describe;
import static io.blobingest.objectlayer.pack.PackTexts.quote;
import static io.blobingest.objectlayer.pack.RawPackFormat.ENTRY_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.FOOTER_READ_AHEAD;
import static io.blobingest.objectlayer.pack.RawPackFormat.HEADER_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.MAGIC;
import static io.blobingest.objectlayer.pack.RawPackFormat.MAGIC_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.MIN_PACK_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.TAIL_LENGTH;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32C;

/**
 * The framing every pack type shares (spec.md section 2), read from the end of the file: the 32-byte
 * tail, the footer it delimits ({@code entry_count} rows of 24 bytes, then the metadata), the
 * footer crc32c, and the metadata, one strict UTF-8 JSON object naming {@code pack_type}, {@code
 * pack_version} and {@code required_features}. What the rows mean, and which types and versions
 * exist, is the pack type's business: {@link RawPackReader} builds Raw Pack v1 on this, and the
 * Object Layer reads this first to learn which pack backend reads the rest.
 *
 * <p>Reading it takes one read of the last {@code min(file_len, 64 KiB)} bytes and exactly one
 * more when the footer is larger. The footer crc is checked before the metadata is parsed, so a
 * damaged footer reports a crc mismatch rather than whatever its damaged metadata seems to say.
 *
 * <p>Immutable.
 */
public final class PackEnvelope {

    // Duplicate keys would make the metadata mean two things; trailing bytes would hide damage.
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final TypeReference<Map<String, Object>> JSON_OBJECT = new TypeReference<>() {};

    /**
     * The footer and the tail are held in one array; the limit is far above any real pack (about
     * 89 M Raw Pack entries).
     */
    private static final long MAX_FOOTER_LENGTH = Integer.MAX_VALUE - 8 - TAIL_LENGTH;

    private final String file;
    private final long footerStart;
    private final int entryCount;
    private final Map<String, Object> metadata;
    /** The pack's last bytes, reaching back at least to the footer, which starts at {@link #footerAt}. */
    private final byte[] lastBytes;

    private final int footerAt;

    private PackEnvelope(
            String file,
            long footerStart,
            int entryCount,
            Map<String, Object> metadata,
            byte[] lastBytes,
            int footerAt) {
        this.file = file;
        this.footerStart = footerStart;
        this.entryCount = entryCount;
        // Not Map.copyOf: JSON null is a legal value of a key a reader does not know.
        this.metadata = Collections.unmodifiableMap(metadata);
        this.lastBytes = lastBytes;
        this.footerAt = footerAt;
    }

    /** Reads and checks the envelope of the {@code fileLength}-byte pack in {@code object}. */
    public static PackEnvelope read(ReadableObject object, long fileLength) throws IOException {
        checkLength(object.location(), fileLength);
        return parse(object.location(), fileLength, readLastWindow(object, fileLength), object);
    }

    /**
     * Checks the envelope from the last bytes of a pack. {@code lastBytes} must end at {@code
     * fileLength}; if they do not reach back to the footer's start, the missing part is read from
     * {@code object} in one read (or the parse fails if {@code object} is null).
     *
     * @throws CorruptPackException if the bytes contradict the framing
     * @throws UnsupportedPackException for an unknown tail version or flags, or a footer too large
     */
    public static PackEnvelope parse(String file, long fileLength, byte[] lastBytes, ReadableObject object)
            throws IOException {
        checkLength(file, fileLength);
        if (lastBytes.length < TAIL_LENGTH || lastBytes.length > fileLength) {
            throw new IllegalArgumentException(file + ": the last bytes given must hold the " + TAIL_LENGTH
                    + "-byte tail and lie in the " + fileLength + "-byte file, found " + lastBytes.length + " bytes");
        }
        long windowStart = fileLength - lastBytes.length;
        long tailStart = fileLength - TAIL_LENGTH;
        ByteBuffer tail = ByteBuffer.wrap(lastBytes, (int) (tailStart - windowStart), TAIL_LENGTH)
                .slice()
                .order(ByteOrder.LITTLE_ENDIAN);

        byte[] magic = new byte[MAGIC_LENGTH];
        tail.get(RawPackFormat.TAIL_MAGIC_OFFSET, magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new CorruptPackException(
                    file,
                    tailStart + RawPackFormat.TAIL_MAGIC_OFFSET,
                    "bad tail magic (a truncated or unfinished pack ends without it)",
                    quote(MAGIC),
                    quote(magic));
        }
        int version = Short.toUnsignedInt(tail.getShort(RawPackFormat.TAIL_VERSION_OFFSET));
        if (version != RawPackFormat.VERSION_1) {
            throw new UnsupportedPackException(
                    file,
                    tailStart + RawPackFormat.TAIL_VERSION_OFFSET,
                    "unknown tail version",
                    "version " + RawPackFormat.VERSION_1,
                    "version " + version);
        }
        int flags = Short.toUnsignedInt(tail.getShort(RawPackFormat.TAIL_FLAGS_OFFSET));
        if (flags != 0) {
            throw new UnsupportedPackException(
                    file,
                    tailStart + RawPackFormat.TAIL_FLAGS_OFFSET,
                    "unknown tail flags",
                    "flags 0",
                    "flags 0x" + Integer.toHexString(flags));
        }

        long footerStart = tail.getLong(RawPackFormat.TAIL_FOOTER_START_OFFSET);
        long entryCount = Integer.toUnsignedLong(tail.getInt(RawPackFormat.TAIL_ENTRY_COUNT_OFFSET));
        long metadataLength = Integer.toUnsignedLong(tail.getInt(RawPackFormat.TAIL_METADATA_LENGTH_OFFSET));
        int expectedFooterCrc = tail.getInt(RawPackFormat.TAIL_FOOTER_CRC_OFFSET);

        long footerLength = ENTRY_LENGTH * entryCount + metadataLength;
        if (footerStart < HEADER_LENGTH || footerStart + footerLength != tailStart) {
            throw new CorruptPackException(
                    file,
                    tailStart + RawPackFormat.TAIL_FOOTER_START_OFFSET,
                    "footer size mismatch",
                    "footer_start + 24*entry_count + metadata_length == " + tailStart,
                    Long.toUnsignedString(footerStart) + " + 24*" + entryCount + " + " + metadataLength + " == "
                            + unsignedSum(footerStart, footerLength));
        }
        if (footerLength > MAX_FOOTER_LENGTH) {
            throw new UnsupportedPackException(
                    file,
                    footerStart,
                    "footer too large for this reader",
                    "at most " + MAX_FOOTER_LENGTH + " bytes",
                    footerLength + " bytes");
        }
        byte[] bytes = reachingBackToFooter(file, lastBytes, windowStart, footerStart, object);
        int footerAt = (int) (footerStart - (fileLength - bytes.length));

        CRC32C crc = new CRC32C();
        crc.update(bytes, footerAt, (int) footerLength);
        if ((int) crc.getValue() != expectedFooterCrc) {
            throw new CorruptPackException(
                    file,
                    footerStart,
                    "footer crc32c mismatch",
                    "crc32c " + Integer.toUnsignedString(expectedFooterCrc),
                    "crc32c " + crc.getValue());
        }

        int entryTableLength = (int) (ENTRY_LENGTH * entryCount);
        Map<String, Object> metadata = parseMetadata(
                file, footerStart + entryTableLength, bytes, footerAt + entryTableLength, (int) metadataLength);
        return new PackEnvelope(file, footerStart, (int) entryCount, metadata, bytes, footerAt);
    }

    /** The last {@code min(file_len, 64 KiB)} bytes, the first of at most two reads of an envelope. */
    static byte[] readLastWindow(ReadableObject object, long fileLength) throws IOException {
        int window = (int) Math.min(fileLength, FOOTER_READ_AHEAD);
        byte[] lastBytes = new byte[window];
        object.readFully(fileLength - window, lastBytes, 0, window);
        return lastBytes;
    }

    private static void checkLength(String file, long fileLength) throws CorruptPackException {
        if (fileLength < MIN_PACK_LENGTH) {
            throw new CorruptPackException(
                    file, 0, "truncated pack", "at least " + MIN_PACK_LENGTH + " bytes", fileLength + " bytes");
        }
    }

    /**
     * A copy of {@code lastBytes}, widened back to {@code footerStart} when they begin after it, by
     * reading what they lack.
     */
    private static byte[] reachingBackToFooter(
            String file, byte[] lastBytes, long windowStart, long footerStart, ReadableObject object)
            throws IOException {
        if (footerStart >= windowStart) {
            return lastBytes.clone();
        }
        if (object == null) {
            throw new IllegalArgumentException(
                    file + ": footer starts at " + footerStart + ", before the given bytes at " + windowStart);
        }
        // Exactly one more read: the part of the footer in front of the first window.
        int missing = (int) (windowStart - footerStart);
        byte[] bytes = new byte[missing + lastBytes.length];
        object.readFully(footerStart, bytes, 0, missing);
        System.arraycopy(lastBytes, 0, bytes, missing, lastBytes.length);
        return bytes;
    }

    private static Map<String, Object> parseMetadata(
            String file, long metadataStart, byte[] bytes, int offset, int length) throws CorruptPackException {
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes, offset, length))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new CorruptPackException(
                    file, metadataStart, "bad metadata", "UTF-8 text", "bytes that are not UTF-8 (" + e + ")");
        }
        try {
            Map<String, Object> parsed = JSON.readValue(text, JSON_OBJECT);
            if (parsed == null) {
                throw new CorruptPackException(file, metadataStart, "bad metadata", "a JSON object", "null");
            }
            return parsed;
        } catch (JsonProcessingException e) {
            throw new CorruptPackException(
                    file,
                    metadataStart,
                    "bad metadata",
                    "a UTF-8 JSON object",
                    "unparseable JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw new CorruptPackException(file, metadataStart, "bad metadata", "a UTF-8 JSON object", e.toString());
        }
    }

    /** {@code a + b} for an unsigned {@code a}, exact even where a long would wrap. */
    private static String unsignedSum(long a, long b) {
        return new BigInteger(Long.toUnsignedString(a))
                .add(BigInteger.valueOf(b))
                .toString();
    }

    /**
     * The metadata's {@code required_features}, every one of which must be in {@code
     * supportedFeatures}. Checked on request rather than while parsing, so that each pack type
     * keeps its own order of metadata checks.
     *
     * @throws CorruptPackException if it is absent or not an array of strings
     * @throws UnsupportedPackException naming the first feature not supported
     */
    public List<String> requiredFeatures(Set<String> supportedFeatures) throws PackFormatException {
        long at = metadataStart();
        Object features = metadata.get(RawPackFormat.META_REQUIRED_FEATURES);
        if (!(features instanceof List<?> list)) {
            throw new CorruptPackException(
                    file, at, "bad required_features", "a JSON array of strings", describe(features));
        }
        List<String> required = new ArrayList<>(list.size());
        for (Object feature : list) {
            if (!(feature instanceof String name)) {
                throw new CorruptPackException(
                        file, at, "bad required_features", "a JSON array of strings", describe(feature));
            }
            if (!supportedFeatures.contains(name)) {
                throw new UnsupportedPackException(
                        file, at, "unknown required feature", describeSupported(supportedFeatures), quote(name));
            }
            required.add(name);
        }
        return List.copyOf(required);
    }

    private static String describeSupported(Set<String> supportedFeatures) {
        return supportedFeatures.isEmpty()
                ? "a feature this reader supports (it supports none)"
                : "one of the features this reader supports " + new TreeSet<>(supportedFeatures);
    }

    /** The pack's location, for error messages. */
    public String file() {
        return file;
    }

    /** Where the footer (the entry table) begins; the payload region ends here. */
    public long footerStart() {
        return footerStart;
    }

    /** The tail's {@code entry_count}: rows of 24 bytes in the entry table. */
    public int entryCount() {
        return entryCount;
    }

    /** Where the metadata begins in the file; metadata errors name this offset. */
    public long metadataStart() {
        return footerStart + (long) ENTRY_LENGTH * entryCount;
    }

    /** The entry table's bytes, read-only and little-endian, position 0; row {@code i} at {@code 24 * i}. */
    public ByteBuffer entryTable() {
        return ByteBuffer.wrap(lastBytes, footerAt, ENTRY_LENGTH * entryCount)
                .slice()
                .asReadOnlyBuffer()
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The metadata JSON object as parsed, unknown keys and their {@code null} values included. Unmodifiable. */
    public Map<String, Object> metadata() {
        return metadata;
    }

    /**
     * A copy of the pack's last bytes, ending at its end and beginning where the footer does, or
     * earlier when the first read reached further (the whole file when it is at most 64 KiB).
     */
    public byte[] lastBytes() {
        return lastBytes.clone();
    }
}
