package io.blobingest.objectlayer.internal;

import static io.blobingest.objectlayer.pack.RawPackFormat.ENTRY_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.FOOTER_READ_AHEAD;
import static io.blobingest.objectlayer.pack.RawPackFormat.HEADER_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.MAGIC;
import static io.blobingest.objectlayer.pack.RawPackFormat.MAGIC_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.MIN_PACK_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.TAIL_LENGTH;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.blobingest.objectlayer.pack.CorruptPackException;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.pack.PackTexts;
import io.blobingest.objectlayer.pack.UnsupportedPackException;
import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The part of a pack every pack type shares (SPEC section 2): the tail, the footer crc32c and the
 * metadata keys that say which backend reads the rest. Read from the end of the file in one read
 * of the last {@code min(file_len, 64 KiB)} bytes, plus one more when the footer is larger.
 *
 * <p>The footer crc is checked here, before the metadata is trusted to pick a backend, so a
 * damaged footer reports a crc mismatch rather than an unknown pack type.
 */
final class PackEnvelope {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Footers are read into one array. */
    private static final long MAX_FOOTER_LENGTH = Integer.MAX_VALUE - 8 - FOOTER_READ_AHEAD;

    private final String packType;
    private final JsonNode packVersion;
    private final List<String> requiredFeatures;
    private final long metadataOffset;
    private final byte[] lastBytes;

    private PackEnvelope(
            String packType, JsonNode packVersion, List<String> requiredFeatures, long metadataOffset, byte[] lastBytes) {
        this.packType = packType;
        this.packVersion = packVersion;
        this.requiredFeatures = requiredFeatures;
        this.metadataOffset = metadataOffset;
        this.lastBytes = lastBytes;
    }

    static PackEnvelope read(ReadableObject object, long fileLength) throws IOException {
        String file = object.location();
        if (fileLength < MIN_PACK_LENGTH) {
            throw new CorruptPackException(
                    file, 0, "truncated pack", "at least " + MIN_PACK_LENGTH + " bytes", fileLength + " bytes");
        }
        int window = (int) Math.min(fileLength, FOOTER_READ_AHEAD);
        long windowStart = fileLength - window;
        byte[] lastBytes = new byte[window];
        object.readFully(windowStart, lastBytes, 0, window);

        long tailStart = fileLength - TAIL_LENGTH;
        ByteBuffer tail = ByteBuffer.wrap(lastBytes, window - TAIL_LENGTH, TAIL_LENGTH).slice().order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[MAGIC_LENGTH];
        tail.get(RawPackFormat.TAIL_MAGIC_OFFSET, magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new CorruptPackException(
                    file, tailStart + RawPackFormat.TAIL_MAGIC_OFFSET, "bad tail magic",
                    PackTexts.quote(MAGIC), PackTexts.quote(magic));
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
        int expectedCrc = tail.getInt(RawPackFormat.TAIL_FOOTER_CRC_OFFSET);
        long footerLength = ENTRY_LENGTH * entryCount + metadataLength;
        if (footerStart < HEADER_LENGTH || footerStart > tailStart || footerLength != tailStart - footerStart) {
            throw new CorruptPackException(
                    file, tailStart + RawPackFormat.TAIL_FOOTER_START_OFFSET, "footer size mismatch",
                    "footer_start + 24*entry_count + metadata_length == " + tailStart,
                    Long.toUnsignedString(footerStart) + " + 24*" + entryCount + " + " + metadataLength);
        }
        if (footerLength > MAX_FOOTER_LENGTH) {
            throw new UnsupportedPackException(
                    file, footerStart, "footer too large to index in memory",
                    "at most " + MAX_FOOTER_LENGTH + " bytes", footerLength + " bytes");
        }
        if (footerStart < windowStart) {
            // The footer is larger than the first window: exactly one more read, of what is missing.
            int missing = (int) (windowStart - footerStart);
            byte[] wider = new byte[missing + window];
            object.readFully(footerStart, wider, 0, missing);
            System.arraycopy(lastBytes, 0, wider, missing, window);
            lastBytes = wider;
            windowStart = footerStart;
        }

        int footerAt = (int) (footerStart - windowStart);
        CRC32C crc = new CRC32C();
        crc.update(lastBytes, footerAt, (int) footerLength);
        if ((int) crc.getValue() != expectedCrc) {
            throw new CorruptPackException(
                    file, footerStart, "footer crc32c mismatch",
                    "crc32c " + Integer.toUnsignedString(expectedCrc), "crc32c " + crc.getValue());
        }

        long metadataOffset = footerStart + ENTRY_LENGTH * entryCount;
        JsonNode metadata = parseMetadata(file, metadataOffset, lastBytes, (int) (metadataOffset - windowStart), (int) metadataLength);
        JsonNode packType = metadata.get(RawPackFormat.META_PACK_TYPE);
        if (packType == null || !packType.isTextual()) {
            throw new CorruptPackException(
                    file, metadataOffset, "bad pack_type", "a JSON string", String.valueOf(packType));
        }
        return new PackEnvelope(
                packType.textValue(),
                metadata.get(RawPackFormat.META_PACK_VERSION),
                requiredFeatures(file, metadataOffset, metadata),
                metadataOffset,
                lastBytes);
    }

    private static JsonNode parseMetadata(String file, long metadataOffset, byte[] bytes, int at, int length)
            throws CorruptPackException {
        JsonNode metadata;
        try {
            metadata = JSON.readTree(bytes, at, length);
        } catch (IOException e) {
            throw new CorruptPackException(
                    file, metadataOffset, "bad metadata", "a UTF-8 JSON object", "unparseable JSON (" + e.getMessage() + ")");
        }
        if (metadata == null || !metadata.isObject()) {
            throw new CorruptPackException(
                    file, metadataOffset, "bad metadata", "a UTF-8 JSON object", String.valueOf(metadata));
        }
        return metadata;
    }

    private static List<String> requiredFeatures(String file, long metadataOffset, JsonNode metadata)
            throws CorruptPackException {
        JsonNode features = metadata.get(RawPackFormat.META_REQUIRED_FEATURES);
        if (features == null || !features.isArray()) {
            throw new CorruptPackException(
                    file, metadataOffset, "bad required_features", "a JSON array of strings", String.valueOf(features));
        }
        List<String> names = new ArrayList<>(features.size());
        for (JsonNode feature : features) {
            if (!feature.isTextual()) {
                throw new CorruptPackException(
                        file, metadataOffset, "bad required_features", "a JSON array of strings", feature.toString());
            }
            names.add(feature.textValue());
        }
        return List.copyOf(names);
    }

    String packType() {
        return packType;
    }

    /** The metadata's {@code pack_version} as found: any JSON value, or null when absent. */
    JsonNode packVersion() {
        return packVersion;
    }

    List<String> requiredFeatures() {
        return requiredFeatures;
    }

    /** Where the metadata starts in the file, for error messages. */
    long metadataOffset() {
        return metadataOffset;
    }

    /** The pack's last bytes, ending at its end and covering at least the whole footer. */
    byte[] lastBytes() {
        return lastBytes;
    }
}
