package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.RawPackFormat.SHA256_LENGTH;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HexFormat;

/**
 * The SHA-256 of each entry's payload in entry order, or none where it is not known: 32 bytes an
 * entry in one array plus a bit, never hex strings, so that a writer holding many entries stays
 * small. Also the one place that knows how the metadata key {@value RawPackFormat#META_ENTRY_SHA256}
 * is written and how many bytes it takes, so a writer can predict its pack's length without
 * writing the key.
 *
 * <p>A writer appends to its own instance; footers and writer states hold {@linkplain #copy()
 * copies} that nothing changes. Not thread-safe.
 */
final class EntrySha256s {

    private static final HexFormat HEX = HexFormat.of();
    private static final int INITIAL_CAPACITY = 64;

    /** {@code ,"entry_sha256":[} and {@code ]}: what the key adds besides its items and their commas. */
    private static final int FIELD_OVERHEAD = RawPackFormat.META_ENTRY_SHA256.length() + 6;
    /** A known item: 64 hex characters in quotes. */
    private static final int KNOWN_ITEM_LENGTH = 2 * SHA256_LENGTH + 2;
    /** An unknown item: {@code null}. */
    private static final int UNKNOWN_ITEM_LENGTH = 4;

    private byte[] digests;
    private final BitSet known = new BitSet();
    private int count;
    private int knownCount;

    EntrySha256s(int capacity) {
        this.digests = new byte[Math.max(INITIAL_CAPACITY, capacity) * SHA256_LENGTH];
    }

    /** Adds the next entry's SHA-256 (copied), or null if it is not known. */
    void add(byte[] sha256) {
        ensureCapacity();
        if (sha256 != null) {
            if (sha256.length != SHA256_LENGTH) {
                throw new IllegalArgumentException("a SHA-256 has " + SHA256_LENGTH + " bytes, found " + sha256.length);
            }
            System.arraycopy(sha256, 0, digests, count * SHA256_LENGTH, SHA256_LENGTH);
            known.set(count);
            knownCount++;
        }
        count++;
    }

    /** Adds an entry whose payload is entry {@code index}'s, so its SHA-256 is too. */
    void addCopyOf(int index) {
        ensureCapacity();
        if (known.get(index)) {
            System.arraycopy(digests, index * SHA256_LENGTH, digests, count * SHA256_LENGTH, SHA256_LENGTH);
            known.set(count);
            knownCount++;
        }
        count++;
    }

    private void ensureCapacity() {
        if ((long) (count + 1) * SHA256_LENGTH > digests.length) {
            long capacity = Math.min(Integer.MAX_VALUE - 8, 2L * digests.length);
            if (capacity < (long) (count + 1) * SHA256_LENGTH) {
                throw new IllegalStateException(
                        "cannot hold the SHA-256s of more than " + count + " entries in one array");
            }
            digests = Arrays.copyOf(digests, (int) capacity);
        }
    }

    int count() {
        return count;
    }

    /** A copy of entry {@code index}'s SHA-256, or null if it is not known. */
    byte[] get(int index) {
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException("entry " + index + " of " + count);
        }
        if (!known.get(index)) {
            return null;
        }
        int from = index * SHA256_LENGTH;
        return Arrays.copyOfRange(digests, from, from + SHA256_LENGTH);
    }

    /** A copy holding exactly these entries, independent of later additions to this one. */
    EntrySha256s copy() {
        EntrySha256s copy = new EntrySha256s(count);
        System.arraycopy(digests, 0, copy.digests, 0, count * SHA256_LENGTH);
        copy.known.or(known);
        copy.count = count;
        copy.knownCount = knownCount;
        return copy;
    }

    /** Bytes the key adds to the metadata now, leading comma included. */
    long jsonFieldLength() {
        return jsonFieldLength(knownCount, count - knownCount);
    }

    /** Bytes the key would add with one more known entry: what an append is about to make it. */
    long jsonFieldLengthWithOneMore() {
        return jsonFieldLength(knownCount + 1, count - knownCount);
    }

    private static long jsonFieldLength(long knownItems, long unknownItems) {
        long items = knownItems + unknownItems;
        return FIELD_OVERHEAD
                + KNOWN_ITEM_LENGTH * knownItems
                + UNKNOWN_ITEM_LENGTH * unknownItems
                + Math.max(0, items - 1); // commas
    }

    /** Writes the key and its array, in entry order, as the canonical metadata has them. */
    void writeField(JsonGenerator json) throws IOException {
        json.writeArrayFieldStart(RawPackFormat.META_ENTRY_SHA256);
        for (int i = 0; i < count; i++) {
            if (known.get(i)) {
                int from = i * SHA256_LENGTH;
                json.writeString(HEX.formatHex(digests, from, from + SHA256_LENGTH));
            } else {
                json.writeNull();
            }
        }
        json.writeEndArray();
    }

    /** A fresh SHA-256 digest; not thread-safe, so one per user. */
    static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** True if {@code text} is what a known item must be: 64 lowercase hex characters. */
    static boolean isSha256Hex(String text) {
        if (text.length() != 2 * SHA256_LENGTH) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** The 32 bytes of a hex SHA-256 that {@link #isSha256Hex} accepted. */
    static byte[] parseHex(String hex) {
        return HEX.parseHex(hex);
    }

    /** How a SHA-256 appears in the metadata and in error messages: 64 lowercase hex characters. */
    static String toHex(byte[] sha256) {
        return HEX.formatHex(sha256);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EntrySha256s other
                && count == other.count
                && known.equals(other.known)
                && Arrays.equals(digests, 0, count * SHA256_LENGTH, other.digests, 0, count * SHA256_LENGTH);
    }

    @Override
    public int hashCode() {
        return 31 * count + known.hashCode();
    }
}
