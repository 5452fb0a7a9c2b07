package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.RawPackFormat.HEADER_LENGTH;

import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * Checks one whole Raw Pack: header, footer and every entry's payload crc32c, and its SHA-256
 * where the metadata records one ({@value RawPackFormat#META_ENTRY_SHA256}). Unlike a read plan,
 * which stops at the first problem, it reports every fault it can find, so one run of {@code pack
 * verify} tells the whole story.
 *
 * <p>Faults in the footer end the check: once the entry table cannot be trusted, neither can the
 * payload ranges it names. Payloads are read in bounded chunks, never a whole entry at once, and
 * bytes shared by several entries are read once.
 */
public final class RawPackVerifier {

    private static final int CHUNK_SIZE = 64 * 1024;

    private final RawPackReader reader;

    public RawPackVerifier(RawPackReader reader) {
        this.reader = reader;
    }

    /**
     * All faults found in the pack, in file order of discovery (header, footer, then entries by
     * index); empty if the pack is sound.
     *
     * @throws IOException if the storage itself fails (not for faults in the bytes)
     */
    public List<PackFault> verify(ReadableObject object) throws IOException {
        List<PackFault> faults = new ArrayList<>();
        String file = object.location();
        if (object.length() >= HEADER_LENGTH) {
            byte[] header = new byte[HEADER_LENGTH];
            object.readFully(0, header, 0, HEADER_LENGTH);
            try {
                reader.verifyHeader(file, header);
            } catch (PackFormatException e) {
                faults.add(PackFault.of(e));
            }
        }
        RawPackFooter footer;
        try {
            footer = reader.readFooter(object, false);
        } catch (PackFormatException e) {
            faults.add(PackFault.of(e));
            return faults;
        }
        verifyPayloads(object, footer, faults);
        return faults;
    }

    private static void verifyPayloads(ReadableObject object, RawPackFooter footer, List<PackFault> faults)
            throws IOException {
        byte[] buffer = new byte[CHUNK_SIZE];
        // Hashing costs more than reading from a page cache: only where there is something to compare.
        MessageDigest sha256 = footer.hasEntrySha256() ? EntrySha256s.newDigest() : null;
        Map<PayloadRange, Checksums> computed = new HashMap<>();
        for (int i = 0; i < footer.entryCount(); i++) {
            PayloadRange range = new PayloadRange(footer.entryOffset(i), footer.entryLength(i));
            Checksums found = computed.get(range);
            if (found == null) {
                found = checksums(object, range, buffer, sha256);
                computed.put(range, found);
            }
            if (found.crc32c() != footer.entryCrc32c(i)) {
                faults.add(PackFault.of(RawPackReader.payloadCrcMismatch(footer, i, found.crc32c())));
            }
            Optional<byte[]> expectedSha256 = footer.entrySha256(i);
            if (expectedSha256.isPresent() && !Arrays.equals(expectedSha256.get(), found.sha256())) {
                faults.add(PackFault.of(payloadSha256Mismatch(footer, i, expectedSha256.get(), found.sha256())));
            }
        }
    }

    /** The range's crc32c and, if {@code sha256} is given, its SHA-256, from one pass over its bytes. */
    private static Checksums checksums(ReadableObject object, PayloadRange range, byte[] buffer, MessageDigest sha256)
            throws IOException {
        CRC32C crc = new CRC32C();
        long at = range.offset();
        long end = range.offset() + range.length();
        while (at < end) {
            int n = (int) Math.min(buffer.length, end - at);
            object.readFully(at, buffer, 0, n);
            crc.update(buffer, 0, n);
            if (sha256 != null) {
                sha256.update(buffer, 0, n);
            }
            at += n;
        }
        return new Checksums((int) crc.getValue(), sha256 == null ? null : sha256.digest());
    }

    private static CorruptPackException payloadSha256Mismatch(
            RawPackFooter footer, int index, byte[] expected, byte[] found) {
        return new CorruptPackException(
                footer.file(),
                footer.entryOffset(index),
                "payload sha256 mismatch in entry " + index,
                "sha256 " + EntrySha256s.toHex(expected),
                "sha256 " + EntrySha256s.toHex(found));
    }

    private record PayloadRange(long offset, long length) {}

    /** What one pass over a payload range computed; {@code sha256} null if it was not asked for. */
    private record Checksums(int crc32c, byte[] sha256) {}
}
