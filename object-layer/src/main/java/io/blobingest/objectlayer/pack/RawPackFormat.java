package io.blobingest.objectlayer.pack;

import java.nio.charset.StandardCharsets;

/**
 * Constants of the Raw Pack v1 layout. The layout is documented once, in {@code
 * docs/spec.md} section 2; this class mirrors it and nothing else should hard-code its numbers.
 *
 * <pre>
 * 0                 Header       16 B   magic "BLOBPACK" | u16 version=1 | u16 flags=0 | u32 reserved=0
 * 16                Payload             entry payloads, back to back, no framing
 * footer_start      Entry table  N*24 B u64 offset | u64 length | u32 crc32c | u32 flags=0
 *                   Metadata     M B    UTF-8 JSON object
 * file_len - 32     Tail         32 B   u64 footer_start | u32 entry_count | u32 metadata_length |
 *                                       u32 footer_crc32c | u16 version=1 | u16 flags=0 | magic "BLOBPACK"
 * </pre>
 *
 * All integers are little-endian.
 */
public final class RawPackFormat {

    public static final byte[] MAGIC = "BLOBPACK".getBytes(StandardCharsets.US_ASCII);
    public static final int MAGIC_LENGTH = 8;

    public static final int VERSION_1 = 1;
    public static final int CURRENT_VERSION = VERSION_1;

    public static final String PACK_TYPE = "raw";
    public static final int PACK_VERSION = 1;
    public static final String FEATURE_BLOB_OBJECT_PACK = "blob_object_pack";

    // Header: magic(8) | u16 version | u16 flags | u32 reserved
    public static final int HEADER_LENGTH = 16;
    public static final int HEADER_VERSION_OFFSET = 8;
    public static final int HEADER_FLAGS_OFFSET = 10;
    public static final int HEADER_RESERVED_OFFSET = 12;

    // Entry: u64 offset | u64 length | u32 crc32c | u32 flags
    public static final int ENTRY_LENGTH = 24;
    public static final int ENTRY_OFFSET_OFFSET = 0;
    public static final int ENTRY_LENGTH_OFFSET = 8;
    public static final int ENTRY_CRC_OFFSET = 16;
    public static final int ENTRY_FLAGS_OFFSET = 20;

    // Tail: u64 footer_start | u32 entry_count | u32 metadata_length | u32 footer_crc32c
    //       | u16 version | u16 flags | magic(8)
    public static final int TAIL_LENGTH = 32;
    public static final int TAIL_FOOTER_START_OFFSET = 0;
    public static final int TAIL_ENTRY_COUNT_OFFSET = 8;
    public static final int TAIL_METADATA_LENGTH_OFFSET = 12;
    public static final int TAIL_FOOTER_CRC_OFFSET = 16;
    public static final int TAIL_VERSION_OFFSET = 20;
    public static final int TAIL_FLAGS_OFFSET = 22;
    public static final int TAIL_MAGIC_OFFSET = 24;

    /** No pack is shorter: header and tail. (A valid one also holds metadata, at least "{}".) */
    public static final int MIN_PACK_LENGTH = HEADER_LENGTH + TAIL_LENGTH;

    /** A reader's first read: the last min(file_len, 64 KiB) bytes, which usually hold the footer. */
    public static final int FOOTER_READ_AHEAD = 64 * 1024;

    /** Entry references have bit 63 set, so a legacy reader taking them as offsets fails. */
    public static final long ENTRY_REFERENCE_FLAG = 0x8000_0000_0000_0000L;
    /** Bits 62..32 are zero in v1; bits 31..0 hold the entry index. */
    public static final long ENTRY_REFERENCE_RESERVED_MASK = 0x7FFF_FFFF_0000_0000L;

    public static final long ENTRY_REFERENCE_INDEX_MASK = 0x0000_0000_FFFF_FFFFL;

    // Metadata keys, in the canonical order the writer emits them.
    public static final String META_PACK_TYPE = "pack_type";
    public static final String META_PACK_VERSION = "pack_version";
    public static final String META_REQUIRED_FEATURES = "required_features";
    public static final String META_BLOB_SET = "blob_set";
    public static final String META_BLOB_ID = "blob_id";
    public static final String META_ENTRY_COUNT = "entry_count";
    public static final String META_PAYLOAD_BYTES = "payload_bytes";
    public static final String META_CREATED_BY = "created_by";
    /**
     * Optional, last: each entry's payload SHA-256 (64 lowercase hex characters, or null where the
     * writer did not know it), written only by a writer that records hashes.
     */
    public static final String META_ENTRY_SHA256 = "entry_sha256";

    /** Bytes of one SHA-256 digest, as {@value #META_ENTRY_SHA256} records them per entry. */
    public static final int SHA256_LENGTH = 32;

    private RawPackFormat() {}

    /** The descriptor {@code position} of entry {@code entryIndex}. */
    public static long entryReference(int entryIndex) {
        if (entryIndex < 0) {
            throw new IllegalArgumentException("entry index must be >= 0, found " + entryIndex);
        }
        return ENTRY_REFERENCE_FLAG | entryIndex;
    }

    /** True if {@code position} is an object-backed entry reference (bit 63 set). */
    public static boolean isEntryReference(long position) {
        return (position & ENTRY_REFERENCE_FLAG) != 0;
    }

    /**
     * The entry index in an entry reference.
     *
     * @throws IllegalArgumentException if bit 63 is clear or a reserved bit (62..32) is set
     */
    public static long entryIndex(long entryReference) {
        if (!isEntryReference(entryReference)) {
            throw new IllegalArgumentException("position " + Long.toUnsignedString(entryReference)
                    + " is not an entry reference: bit 63 is clear");
        }
        if ((entryReference & ENTRY_REFERENCE_RESERVED_MASK) != 0) {
            throw new IllegalArgumentException(String.format(
                    "entry reference 0x%016x has reserved bits 62..32 set (expected zero in v1)", entryReference));
        }
        return entryReference & ENTRY_REFERENCE_INDEX_MASK;
    }
}
