package io.blobingest.objectlayer.pack;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A validated Raw Pack footer: the entry table and metadata of one pack. Everything a read plan
 * needs; holding one means no payload byte has been read yet.
 */
public final class RawPackFooter {

    private final String file;
    private final long fileLength;
    private final long footerStart;
    private final EntryTable entries;
    private final Map<String, Object> metadata;
    private final List<String> requiredFeatures;

    RawPackFooter(
            String file,
            long fileLength,
            long footerStart,
            EntryTable entries,
            Map<String, Object> metadata,
            List<String> requiredFeatures) {
        this.file = file;
        this.fileLength = fileLength;
        this.footerStart = footerStart;
        this.entries = entries;
        // Both come unmodifiable from PackEnvelope; the metadata may hold JSON nulls.
        this.metadata = metadata;
        this.requiredFeatures = requiredFeatures;
    }

    public String file() {
        return file;
    }

    public long fileLength() {
        return fileLength;
    }

    /** Where the payload region ends and the entry table begins. */
    public long footerStart() {
        return footerStart;
    }

    public int entryCount() {
        return entries.count();
    }

    /** Absolute offset of entry {@code index}'s payload in the file. */
    public long entryOffset(int index) {
        return entries.offset(index);
    }

    public long entryLength(int index) {
        return entries.length(index);
    }

    /** crc32c of entry {@code index}'s payload, as an unsigned 32-bit value in an int. */
    public int entryCrc32c(int index) {
        return entries.crc32c(index);
    }

    /** True if the metadata records each entry's payload SHA-256 ({@value RawPackFormat#META_ENTRY_SHA256}). */
    public boolean hasEntrySha256() {
        return entries.sha256s() != null;
    }

    /**
     * A copy of the SHA-256 the metadata records for entry {@code index}'s payload; empty if the
     * pack records none, or none for this entry (its writer did not know it).
     */
    public Optional<byte[]> entrySha256(int index) {
        EntrySha256s sha256s = entries.sha256s();
        return sha256s == null ? Optional.empty() : Optional.ofNullable(sha256s.get(index));
    }

    /**
     * This footer without its entry hashes (checked when it was read): for a reader that keeps
     * footers and never looks at the hashes, which would add 32 bytes an entry.
     */
    public RawPackFooter withoutEntrySha256() {
        if (!hasEntrySha256()) {
            return this;
        }
        return new RawPackFooter(file, fileLength, footerStart, entries.withSha256s(null), metadata, requiredFeatures);
    }

    /** Offset in the file of entry {@code index}'s row in the entry table. */
    public long entryTableOffset(int index) {
        return footerStart + (long) RawPackFormat.ENTRY_LENGTH * index;
    }

    /**
     * The parsed metadata JSON object, unknown keys included, except {@value
     * RawPackFormat#META_ENTRY_SHA256}: its items are read by {@link #entrySha256(int)}. Unmodifiable.
     */
    public Map<String, Object> metadata() {
        return metadata;
    }

    public List<String> requiredFeatures() {
        return requiredFeatures;
    }

    public String blobSet() {
        Object value = metadata.get(RawPackFormat.META_BLOB_SET);
        return value == null ? null : value.toString();
    }

    public long blobId() {
        Object value = metadata.get(RawPackFormat.META_BLOB_ID);
        return value instanceof Number n ? n.longValue() : -1;
    }

    /** Sum of entry lengths as recorded in the entry table. */
    public long payloadBytes() {
        return entries.payloadBytes();
    }
}
