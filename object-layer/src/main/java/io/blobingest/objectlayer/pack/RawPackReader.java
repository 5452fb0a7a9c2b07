package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.PackTexts.describe;
import static io.blobingest.objectlayer.pack.PackTexts.quote;
import static io.blobingest.objectlayer.pack.RawPackFormat.ENTRY_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.HEADER_LENGTH;
import static io.blobingest.objectlayer.pack.RawPackFormat.MAGIC;
import static io.blobingest.objectlayer.pack.RawPackFormat.MAGIC_LENGTH;

import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Reads and validates Raw Pack v1 footers, and checks payloads against their crc32c. The tail,
 * footer crc, metadata JSON and required features are the {@link PackEnvelope} every pack type
 * shares; this reader adds what is Raw Pack v1's own: {@code pack_type} "raw" at {@code
 * pack_version} 1, the entry rows, the metadata's counts and, when present, its entry hashes
 * ({@value RawPackFormat#META_ENTRY_SHA256}).
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
        long fileLength = object.length();
        return parseFooter(
                object.location(),
                fileLength,
                PackEnvelope.readLastWindow(object, fileLength),
                object,
                checkHeaderInWindow);
    }

    /**
     * Validates a footer from the last bytes of a pack. {@code lastBytes} must end at {@code
     * fileLength}; if it does not reach back to the footer's start, the missing part is read from
     * {@code object} in one read (or the parse fails if {@code object} is null).
     */
    public RawPackFooter parseFooter(String file, long fileLength, byte[] lastBytes, ReadableObject object)
            throws IOException {
        return parseFooter(file, fileLength, lastBytes, object, true);
    }

    private RawPackFooter parseFooter(
            String file, long fileLength, byte[] lastBytes, ReadableObject object, boolean checkHeaderInWindow)
            throws IOException {
        // When the bytes hold the header it is checked first, as for a pack read from its start.
        if (checkHeaderInWindow && fileLength >= RawPackFormat.MIN_PACK_LENGTH && lastBytes.length == fileLength) {
            verifyHeader(file, lastBytes);
        }
        PackEnvelope envelope = PackEnvelope.parse(file, fileLength, lastBytes, object);
        long metadataStart = envelope.metadataStart();
        Map<String, Object> metadata = envelope.metadata();
        checkPackTypeAndVersion(file, metadataStart, metadata);
        List<String> requiredFeatures = envelope.requiredFeatures(supportedFeatures);
        checkEntryCount(file, metadataStart, metadata, envelope.entryCount());

        long footerStart = envelope.footerStart();
        int count = envelope.entryCount();
        long[] offsets = new long[count];
        long[] lengths = new long[count];
        int[] crcs = new int[count];
        ByteBuffer table = envelope.entryTable();
        for (int i = 0; i < count; i++) {
            int at = i * ENTRY_LENGTH;
            long rowOffset = footerStart + at;
            long offset = table.getLong(at + RawPackFormat.ENTRY_OFFSET_OFFSET);
            long length = table.getLong(at + RawPackFormat.ENTRY_LENGTH_OFFSET);
            int entryFlags = table.getInt(at + RawPackFormat.ENTRY_FLAGS_OFFSET);
            if (entryFlags != 0) {
                throw new UnsupportedPackException(
                        file,
                        rowOffset + RawPackFormat.ENTRY_FLAGS_OFFSET,
                        "unknown flags in entry " + i,
                        "flags 0",
                        "flags 0x" + Integer.toHexString(entryFlags));
            }
            if (offset < HEADER_LENGTH || length < 0 || offset > footerStart - length) {
                throw new CorruptPackException(
                        file,
                        rowOffset,
                        "entry " + i + " out of bounds",
                        "a range inside the payload [" + HEADER_LENGTH + ", " + footerStart + ")",
                        "offset " + Long.toUnsignedString(offset) + " length " + Long.toUnsignedString(length));
            }
            offsets[i] = offset;
            lengths[i] = length;
            crcs[i] = table.getInt(at + RawPackFormat.ENTRY_CRC_OFFSET);
        }
        EntryTable entries = new EntryTable(offsets, lengths, crcs);
        checkPayloadBytes(file, metadataStart, metadata, entries.payloadBytes());
        EntrySha256s sha256s = readEntrySha256s(file, metadataStart, metadata, count);
        return new RawPackFooter(
                file,
                fileLength,
                footerStart,
                entries.withSha256s(sha256s),
                withoutEntrySha256(metadata),
                requiredFeatures);
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
                    file,
                    RawPackFormat.HEADER_VERSION_OFFSET,
                    "unknown header version",
                    "version " + RawPackFormat.VERSION_1,
                    "version " + version);
        }
        int flags = Short.toUnsignedInt(header.getShort(RawPackFormat.HEADER_FLAGS_OFFSET));
        if (flags != 0) {
            throw new UnsupportedPackException(
                    file,
                    RawPackFormat.HEADER_FLAGS_OFFSET,
                    "unknown header flags",
                    "flags 0",
                    "flags 0x" + Integer.toHexString(flags));
        }
        int reserved = header.getInt(RawPackFormat.HEADER_RESERVED_OFFSET);
        if (reserved != 0) {
            throw new CorruptPackException(
                    file,
                    RawPackFormat.HEADER_RESERVED_OFFSET,
                    "non-zero reserved header field",
                    "0",
                    "0x" + Integer.toHexString(reserved));
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
                footer.file(),
                footer.entryOffset(index),
                "payload crc32c mismatch in entry " + index,
                "crc32c " + Integer.toUnsignedString(footer.entryCrc32c(index)),
                "crc32c " + Integer.toUnsignedString(found));
    }

    /** Raw Pack v1 only: {@code pack_type} the string "raw", {@code pack_version} the integer 1. */
    private static void checkPackTypeAndVersion(String file, long metadataStart, Map<String, Object> metadata)
            throws UnsupportedPackException {
        Object packType = metadata.get(RawPackFormat.META_PACK_TYPE);
        if (!RawPackFormat.PACK_TYPE.equals(packType)) {
            throw new UnsupportedPackException(
                    file, metadataStart, "unknown pack_type", quote(RawPackFormat.PACK_TYPE), describe(packType));
        }
        Object packVersion = metadata.get(RawPackFormat.META_PACK_VERSION);
        if (!(packVersion instanceof Integer v) || v != RawPackFormat.PACK_VERSION) {
            throw new UnsupportedPackException(
                    file,
                    metadataStart,
                    "unknown pack_version",
                    String.valueOf(RawPackFormat.PACK_VERSION),
                    describe(packVersion));
        }
    }

    private static void checkEntryCount(String file, long metadataStart, Map<String, Object> metadata, long entryCount)
            throws CorruptPackException {
        Object declaredCount = metadata.get(RawPackFormat.META_ENTRY_COUNT);
        if (declaredCount != null && !isInteger(declaredCount, entryCount)) {
            throw new CorruptPackException(
                    file,
                    metadataStart,
                    "metadata entry_count disagrees with the tail",
                    String.valueOf(entryCount),
                    describe(declaredCount));
        }
    }

    private static void checkPayloadBytes(String file, long metadataStart, Map<String, Object> metadata, long sum)
            throws CorruptPackException {
        Object declared = metadata.get(RawPackFormat.META_PAYLOAD_BYTES);
        if (declared != null && !isInteger(declared, sum)) {
            throw new CorruptPackException(
                    file,
                    metadataStart,
                    "metadata payload_bytes disagrees with the entry table",
                    sum + " (the sum of entry lengths)",
                    describe(declared));
        }
    }

    /**
     * The entries' SHA-256s if the metadata records them, else null. A pack need not record them;
     * if it does, the value must be an array of one item per entry, each 64 lowercase hex
     * characters or null.
     */
    private static EntrySha256s readEntrySha256s(
            String file, long metadataStart, Map<String, Object> metadata, int entryCount) throws CorruptPackException {
        if (!metadata.containsKey(RawPackFormat.META_ENTRY_SHA256)) {
            return null;
        }
        Object value = metadata.get(RawPackFormat.META_ENTRY_SHA256);
        String expected = "a JSON array of " + entryCount + " items (the entry_count), each 64 lowercase hex"
                + " characters or null";
        if (!(value instanceof List<?> items)) {
            throw badEntrySha256(file, metadataStart, expected, describe(value));
        }
        if (items.size() != entryCount) {
            throw badEntrySha256(file, metadataStart, expected, items.size() + " items");
        }
        EntrySha256s sha256s = new EntrySha256s(entryCount);
        for (int i = 0; i < entryCount; i++) {
            Object item = items.get(i);
            if (item == null) {
                sha256s.add(null);
            } else if (item instanceof String hex && EntrySha256s.isSha256Hex(hex)) {
                sha256s.add(EntrySha256s.parseHex(hex));
            } else {
                throw badEntrySha256(file, metadataStart, expected, "item " + i + " " + describe(item));
            }
        }
        return sha256s;
    }

    private static CorruptPackException badEntrySha256(String file, long metadataStart, String expected, String found) {
        return new CorruptPackException(file, metadataStart, "bad entry_sha256", expected, found);
    }

    /**
     * The metadata without its entry hashes, which the footer holds parsed (32 bytes an entry)
     * rather than as the text the JSON parser made of them.
     */
    private static Map<String, Object> withoutEntrySha256(Map<String, Object> metadata) {
        if (!metadata.containsKey(RawPackFormat.META_ENTRY_SHA256)) {
            return metadata;
        }
        Map<String, Object> rest = new LinkedHashMap<>(metadata);
        rest.remove(RawPackFormat.META_ENTRY_SHA256);
        return Collections.unmodifiableMap(rest);
    }

    /** True if a parsed JSON value is an integer equal to {@code expected} (not 2.0, not a string). */
    private static boolean isInteger(Object value, long expected) {
        return (value instanceof Integer || value instanceof Long) && ((Number) value).longValue() == expected;
    }
}
