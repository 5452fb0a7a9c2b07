package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Carries out a {@link ReadSchedule} on one object and hands each range its bytes. */
final class RangeFetcher {

    /** The largest byte array the JVM reliably allocates. */
    static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

    private RangeFetcher() {}

    /** @return the bytes of every range in {@code schedule.ranges()} */
    static Map<ByteSpan, byte[]> fetch(ReadableObject object, ReadSchedule schedule) throws IOException {
        List<ByteSpan> ranges = schedule.ranges();
        Map<ByteSpan, byte[]> bytes = new HashMap<>();
        for (ByteSpan range : ranges) {
            if (range.length() > MAX_ARRAY_LENGTH) {
                throw new IOException(
                        object.location() + ": the " + range.length() + " bytes at offset " + range.offset()
                                + " do not fit in one array (at most " + MAX_ARRAY_LENGTH + " bytes)");
            }
        }
        // One buffer for every read that spans several ranges, as long as the longest of them: merged
        // reads are megabytes long, and a fresh array of that size per read (zeroed, and a
        // humongous object for G1) cost more than the read itself.
        byte[] buffer = new byte[0];
        int first = 0;
        for (ByteSpan read : schedule.reads()) {
            while (first < ranges.size() && ranges.get(first).end() <= read.offset()) {
                first++;
            }
            List<ByteSpan> overlapping = new ArrayList<>();
            for (int i = first; i < ranges.size() && ranges.get(i).offset() < read.end(); i++) {
                if (ranges.get(i).end() > read.offset()) {
                    overlapping.add(ranges.get(i));
                }
            }
            ByteSpan only = overlapping.size() == 1 ? overlapping.get(0) : null;
            if (only != null && only.offset() <= read.offset() && read.end() <= only.end()) {
                // The read lies inside a single range: straight into its array, no copy.
                object.readFully(read.offset(), arrayOf(bytes, only), (int) (read.offset() - only.offset()), (int) read.length());
                continue;
            }
            if (buffer.length < read.length()) {
                buffer = new byte[(int) read.length()];
            }
            object.readFully(read.offset(), buffer, 0, (int) read.length());
            for (ByteSpan range : overlapping) {
                long from = Math.max(range.offset(), read.offset());
                long to = Math.min(range.end(), read.end());
                System.arraycopy(buffer, (int) (from - read.offset()), arrayOf(bytes, range), (int) (from - range.offset()), (int) (to - from));
            }
        }
        for (ByteSpan range : ranges) {
            arrayOf(bytes, range); // a range no read covers: empty
        }
        return bytes;
    }

    /**
     * The range's array, allocated when its first bytes arrive rather than all before the first
     * read: the JVM zeroes a new array, and zeroing a whole batch's arrays up front (many
     * megabytes) only to overwrite them later cost a second pass over memory, the largest item in
     * the read side's profile.
     */
    private static byte[] arrayOf(Map<ByteSpan, byte[]> bytes, ByteSpan range) {
        return bytes.computeIfAbsent(range, span -> new byte[(int) span.length()]);
    }
}
