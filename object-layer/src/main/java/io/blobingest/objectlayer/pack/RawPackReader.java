package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.PackTexts.describe;
import static io.blobingest.objectlayer.pack.PackTexts.quote;
import static io.blobingest.objectlayer.pack.RawPackFormat.ENTRY_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.FOOTER_READ_AHEAD;
import static io.blobingest.objectlayer.pack.RawPackFormat.HEADER_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.MAGIC;
import static io.blobingest.objectlayer.pack.RawPackFormat.MAGIC_LENGTH;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32C;

/**
 * Reads and validates Raw Pack v1 footers, and checks payloads against their crc32c.
 *
 * <p>Planning reads only the end of the file: one read of the last {@code min(file_len, 64 KiB)}
 * bytes, and exactly one more when the footer is larger than that. The header is checked when it
 * lies in that window (packs up to 64 KiB) and always by {@link #verifyHeader}; a plan does not
 * need it, so large packs do not pay a third read for it.
 *
 * <p>A reader knows a set of features; it refuses packs that require any other, and a reader that
 * does not know {@code blob_object_pack} refuses every v1 pack.
 */
public final class RawPackReader {

    // Duplicate keys would make the metadata mean two things; trailing bytes would hide damage.
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final TypeReference<Map<String, Object>> JSON_OBJECT = new TypeReference<>() {};

    /** A footer is held in one array; the limit is far above any real pack (about 89 M entries). */
    private static final long MAX_FOOTER_LENGTH = Integer.MAX_VALUE - 8;

    private final Set<String> supportedFeatures;

    public RawPackReader(Set<String> supportedFeatures) {
        this.supportedFeatures = Set.copyOf(supportedFeatures);
    }

    /** A reader that knows every feature this build implements. */
    public static RawPackReader withAllFeatures() {
        return new RawPackReader(Set.of(RawPackFormat.FEATURE_BLOB_OBJECT_PACK));
    }

    public Set<String> supportedFeatures() {
        return supportedFeatures;
    }

    /** Reads and validates the footer of the pack in {@code object}. */
    public RawPackFooter readFooter(ReadableObject object) throws IOException {
        return readFooter(object, true);
    }

    /**
     * Reads the footer with one read of the last {@code min(file_len, 64 KiB)} bytes and, only if
     * the footer is larger, one more. {@code checkHeaderInWindow} is false for a caller that checks
     * the header itself and wants to hear about the footer separately.
     */
    RawPackFooter readFooter(ReadableObject object, boolean checkHeaderInWindow) throws IOException {
        String file = object.location();
        long fileLength = object.length();
        int window = (int) Math.min(fileLength, FOOTER_READ_AHEAD);
        byte[] tailWindow = new byte[window];
        object.readFully(fileLength - window, tailWindow, 0, window);
        return parseFooter(file, fileLength, tailWindow, object, checkHeaderInWindow);
    }

    /**
     * Validates a footer from the last bytes of a pack. {@code lastBytes} must end at {@code
     * fileLength}; if it does not reach back to the footer's start, the missing part is read from
     * {@code object} in one read (or the parse fails if {@code object} is null).
     */
    public RawPackFooter parseFooter(
            String file, long fileLength, byte[] lastBytes, ReadableObject object) throws IOException {
        return parseFooter(file, fileLength, lastBytes, object, true);
    }

    private RawPackFooter parseFooter(
            String file, long fileLength, byte[] lastBytes, ReadableObject object, boolean checkHeaderInWindow)
            throws IOException {
        if (fileLength < RawPackFormat.MIN_PACK_LENGTH) {
            throw new CorruptPackException(
                    file, 0, "truncated pack", "at least " + RawPackFormat.MIN_PACK_LENGTH + " bytes",
                    fileLength + " bytes");
        }
        if (lastBytes.length < TAIL_LENGTH || lastBytes.length > fileLength) {
            throw new IllegalArgumentException(
                    file + ": the last bytes given must hold the " + TAIL_LENGTH + "-byte tail and lie in the "
                            + fileLength + "-byte file, found " + lastBytes.length + " bytes");
        }
        long windowStart = fileLength - lastBytes.length;
        if (checkHeaderInWindow && windowStart == 0) {
            verifyHeader(file, lastBytes);
        }
        long tailStart = fileLength - TAIL_LENGTH;
        ByteBuffer tail = ByteBuffer.wrap(lastBytes, (int) (tailStart - windowStart), TAIL_LENGTH)
                .slice()
                .order(ByteOrder.LITTLE_ENDIAN);

        byte[] magic = new byte[MAGIC_LENGTH];
        tail.get(RawPackFormat.TAIL_MAGIC_OFFSET, magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new CorruptPackException(
                    file, tailStart + RawPackFormat.TAIL_MAGIC_OFFSET,
                    "bad tail magic (a truncated or unfinished pack ends without it)",
                    quote(MAGIC), quote(magic));
        }
        int version = Short.toUnsignedInt(tail.getShort(RawPackFormat.TAIL_VERSION_OFFSET));
        if (version != RawPackFormat.VERSION_1) {
            throw new UnsupportedPackException(
                    file, tailStart + RawPackFormat.TAIL_VERSION_OFFSET, "unknown tail version",
                    "version " + RawPackFormat.VERSION_1, "version " + version);
        }
        int flags = Short.toUnsignedInt(tail.getShort(RawPackFormat.TAIL_FLAGS_OFFSET));
        if (flags != 0) {
            throw new UnsupportedPackException(
                    file, tailStart + RawPackFormat.TAIL_FLAGS_OFFSET, "unknown tail flags",
                    "flags 0", "flags 0x" + Integer.toHexString(flags));
        }

        long footerStart = tail.getLong(RawPackFormat.TAIL_FOOTER_START_OFFSET);
        long entryCount = Integer.toUnsignedLong(tail.getInt(RawPackFormat.TAIL_ENTRY_COUNT_OFFSET));
        long metadataLength = Integer.toUnsignedLong(tail.getInt(RawPackFormat.TAIL_METADATA_LENGTH_OFFSET));
        int expectedFooterCrc = tail.getInt(RawPackFormat.TAIL_FOOTER_CRC_OFFSET);

        long footerLength = ENTRY_LENGTH * entryCount + metadataLength;
        if (footerStart < HEADER_LENGTH || footerStart + footerLength != tailStart) {
            throw new CorruptPackException(
                    file, tailStart + RawPackFormat.TAIL_FOOTER_START_OFFSET, "footer size mismatch",
                    "footer_start + 24*entry_count + metadata_length == " + tailStart,
                    Long.toUnsignedString(footerStart) + " + 24*" + entryCount + " + " + metadataLength + " == "
                            + unsignedSum(footerStart, footerLength));
        }

        if (footerLength > MAX_FOOTER_LENGTH) {
            throw new UnsupportedPackException(
                    file, footerStart, "footer too large for this reader",
                    "at most " + MAX_FOOTER_LENGTH + " bytes", footerLength + " bytes");
        }
        byte[] footer = footerBytes(file, lastBytes, windowStart, footerStart, footerLength, object);

        CRC32C crc = new CRC32C();
        crc.update(footer);
        if ((int) crc.getValue() != expectedFooterCrc) {
            throw new CorruptPackException(
                    file, footerStart, "footer crc32c mismatch",
                    "crc32c " + Integer.toUnsignedString(expectedFooterCrc),
                    "crc32c " + crc.getValue());
        }

        long metadataStart = footerStart + ENTRY_LENGTH * entryCount;
        Map<String, Object> metadata = parseMetadata(
                file, metadataStart, footer, (int) (ENTRY_LENGTH * entryCount), (int) metadataLength);
        List<String> requiredFeatures = checkMetadata(file, metadataStart, metadata, entryCount);

        int count = Math.toIntExact(entryCount);
        long[] offsets = new long[count];
        long[] lengths = new long[count];
        int[] crcs = new int[count];
        ByteBuffer table = ByteBuffer.wrap(footer).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            int at = i * ENTRY_LENGTH;
            long rowOffset = footerStart + at;
            long offset = table.getLong(at + RawPackFormat.ENTRY_OFFSET_OFFSET);
            long length = table.getLong(at + RawPackFormat.ENTRY_LENGTH_OFFSET);
            int entryFlags = table.getInt(at + RawPackFormat.ENTRY_FLAGS_OFFSET);
            if (entryFlags != 0) {
                throw new UnsupportedPackException(
                        file, rowOffset + RawPackFormat.ENTRY_FLAGS_OFFSET,
                        "unknown flags in entry " + i, "flags 0", "flags 0x" + Integer.toHexString(entryFlags));
            }
            if (offset < HEADER_LENGTH || length < 0 || offset > footerStart - length) {
                throw new CorruptPackException(
                        file, rowOffset, "entry " + i + " out of bounds",
                        "a range inside the payload [" + HEADER_LENGTH + ", " + footerStart + ")",
                        "offset " + Long.toUnsignedString(offset) + " length " + Long.toUnsignedString(length));
            }
            offsets[i] = offset;
            lengths[i] = length;
            crcs[i] = table.getInt(at + RawPackFormat.ENTRY_CRC_OFFSET);
        }
        checkPayloadBytes(file, metadataStart, metadata, lengths);
        return new RawPackFooter(file, fileLength, footerStart, offsets, lengths, crcs, metadata, requiredFeatures);
    }

    /** Checks the 16-byte header at the start of {@code firstBytes}. */
    public void verifyHeader(String file, byte[] firstBytes) throws PackFormatException {
        if (firstBytes.length < HEADER_LENGTH) {
            throw new CorruptPackException(
                    file, 0, "truncated header", HEADER_LENGTH + " bytes", firstBytes.length + " bytes");
        }
        byte[] magic = Arrays.copyOf(firstBytes, MAGIC_LENGTH);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new CorruptPackException(file, 0, "bad header magic", quote(MAGIC), quote(magic));
        }
        ByteBuffer header = ByteBuffer.wrap(firstBytes, 0, HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        int version = Short.toUnsignedInt(header.getShort(RawPackFormat.HEADER_VERSION_OFFSET));
        if (version != RawPackFormat.VERSION_1) {
            throw new UnsupportedPackException(
                    file, RawPackFormat.HEADER_VERSION_OFFSET, "unknown header version",
                    "version " + RawPackFormat.VERSION_1, "version " + version);
        }
        int flags = Short.toUnsignedInt(header.getShort(RawPackFormat.HEADER_FLAGS_OFFSET));
        if (flags != 0) {
            throw new UnsupportedPackException(
                    file, RawPackFormat.HEADER_FLAGS_OFFSET, "unknown header flags",
                    "flags 0", "flags 0x" + Integer.toHexString(flags));
        }
        int reserved = header.getInt(RawPackFormat.HEADER_RESERVED_OFFSET);
        if (reserved != 0) {
            throw new CorruptPackException(
                    file, RawPackFormat.HEADER_RESERVED_OFFSET, "non-zero reserved header field",
                    "0", "0x" + Integer.toHexString(reserved));
        }
    }

    /**
     * Checks one entry's payload against its crc32c.
     *
     * @throws CorruptPackException naming the entry's payload offset if the crc differs
     */
    public static void verifyPayload(RawPackFooter footer, int index, byte[] payload, int offset, int length)
            throws CorruptPackException {
        CRC32C crc = new CRC32C();
        crc.update(payload, offset, length);
        int found = (int) crc.getValue();
        if (found != footer.entryCrc32c(index)) {
            throw payloadCrcMismatch(footer, index, found);
        }
    }

    static CorruptPackException payloadCrcMismatch(RawPackFooter footer, int index, int found) {
        return new CorruptPackException(
                footer.file(), footer.entryOffset(index), "payload crc32c mismatch in entry " + index,
                "crc32c " + Integer.toUnsignedString(footer.entryCrc32c(index)),
                "crc32c " + Integer.toUnsignedString(found));
    }

    private static byte[] footerBytes(
            String file, byte[] lastBytes, long windowStart, long footerStart, long footerLength,
            ReadableObject object) throws IOException {
        int length = Math.toIntExact(footerLength);
        byte[] footer = new byte[length];
        if (footerStart >= windowStart) {
            System.arraycopy(lastBytes, (int) (footerStart - windowStart), footer, 0, length);
            return footer;
        }
        if (object == null) {
            throw new IllegalArgumentException(
                    file + ": footer starts at " + footerStart + ", before the given bytes at " + windowStart);
        }
        // Exactly one more read: the part of the footer in front of the first window.
        int missing = (int) (windowStart - footerStart);
        object.readFully(footerStart, footer, 0, missing);
        System.arraycopy(lastBytes, 0, footer, missing, length - missing);
        return footer;
    }

    private static Map<String, Object> parseMetadata(
            String file, long metadataStart, byte[] footer, int offset, int length) throws CorruptPackException {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(footer, offset, length)).toString();
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
                    file, metadataStart, "bad metadata", "a UTF-8 JSON object",
                    "unparseable JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw new CorruptPackException(
                    file, metadataStart, "bad metadata", "a UTF-8 JSON object", e.toString());
        }
    }

    private List<String> checkMetadata(
            String file, long metadataStart, Map<String, Object> metadata, long entryCount)
            throws PackFormatException {
        Object packType = metadata.get(RawPackFormat.META_PACK_TYPE);
        if (!RawPackFormat.PACK_TYPE.equals(packType)) {
            throw new UnsupportedPackException(
                    file, metadataStart, "unknown pack_type", quote(RawPackFormat.PACK_TYPE), describe(packType));
        }
        Object packVersion = metadata.get(RawPackFormat.META_PACK_VERSION);
        if (!(packVersion instanceof Integer v) || v != RawPackFormat.PACK_VERSION) {
            throw new UnsupportedPackException(
                    file, metadataStart, "unknown pack_version",
                    String.valueOf(RawPackFormat.PACK_VERSION), describe(packVersion));
        }
        Object features = metadata.get(RawPackFormat.META_REQUIRED_FEATURES);
        if (!(features instanceof List<?> list)) {
            throw new CorruptPackException(
                    file, metadataStart, "bad required_features", "a JSON array of strings", describe(features));
        }
        List<String> required = new ArrayList<>(list.size());
        for (Object feature : list) {
            if (!(feature instanceof String name)) {
                throw new CorruptPackException(
                        file, metadataStart, "bad required_features", "a JSON array of strings", describe(feature));
            }
            if (!supportedFeatures.contains(name)) {
                throw new UnsupportedPackException(
                        file, metadataStart, "unknown required feature", describeSupportedFeatures(), quote(name));
            }
            required.add(name);
        }
        Object declaredCount = metadata.get(RawPackFormat.META_ENTRY_COUNT);
        if (declaredCount != null && !isInteger(declaredCount, entryCount)) {
            throw new CorruptPackException(
                    file, metadataStart, "metadata entry_count disagrees with the tail",
                    String.valueOf(entryCount), describe(declaredCount));
        }
        return required;
    }

    private static void checkPayloadBytes(String file, long metadataStart, Map<String, Object> metadata, long[] lengths)
            throws CorruptPackException {
        Object declared = metadata.get(RawPackFormat.META_PAYLOAD_BYTES);
        if (declared == null) {
            return;
        }
        long sum = 0;
        for (long length : lengths) {
            sum += length;
        }
        if (!isInteger(declared, sum)) {
            throw new CorruptPackException(
                    file, metadataStart, "metadata payload_bytes disagrees with the entry table",
                    sum + " (the sum of entry lengths)", describe(declared));
        }
    }

    /** True if a parsed JSON value is an integer equal to {@code expected} (not 2.0, not a string). */
    private static boolean isInteger(Object value, long expected) {
        return (value instanceof Integer || value instanceof Long) && ((Number) value).longValue() == expected;
    }

    /** {@code a + b} for an unsigned {@code a}, exact even where a long would wrap. */
    private static String unsignedSum(long a, long b) {
        return new BigInteger(Long.toUnsignedString(a)).add(BigInteger.valueOf(b)).toString();
    }

    private String describeSupportedFeatures() {
        return supportedFeatures.isEmpty()
                ? "a feature this reader supports (it supports none)"
                : "one of the features this reader supports " + new TreeSet<>(supportedFeatures);
    }
}
