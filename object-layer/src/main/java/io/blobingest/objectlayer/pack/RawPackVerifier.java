package io.blobingest.objectlayer.pack;

import static io.blobingest.objectlayer.pack.RawPackFormat.HEADER_LENGTH;

import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Checks one whole Raw Pack: header, footer and every entry's payload crc32c. Unlike a read plan,
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
        Map<PayloadRange, Integer> computed = new HashMap<>();
        for (int i = 0; i < footer.entryCount(); i++) {
            PayloadRange range = new PayloadRange(footer.entryOffset(i), footer.entryLength(i));
            Integer crc = computed.get(range);
            if (crc == null) {
                crc = crc32c(object, range, buffer);
                computed.put(range, crc);
            }
            int expected = footer.entryCrc32c(i);
            if (crc != expected) {
                faults.add(PackFault.of(RawPackReader.payloadCrcMismatch(footer, i, crc)));
            }
        }
    }

    private static int crc32c(ReadableObject object, PayloadRange range, byte[] buffer) throws IOException {
        CRC32C crc = new CRC32C();
        long at = range.offset();
        long end = range.offset() + range.length();
        while (at < end) {
            int n = (int) Math.min(buffer.length, end - at);
            object.readFully(at, buffer, 0, n);
            crc.update(buffer, 0, n);
            at += n;
        }
        return (int) crc.getValue();
    }

    private record PayloadRange(long offset, long length) {}
}
