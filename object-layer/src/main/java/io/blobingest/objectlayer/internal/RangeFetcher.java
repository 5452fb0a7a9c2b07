package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Carries out a {@link ReadSchedule} on one object, each read as one scattered read, and hands
 * each range its bytes.
 */
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
        int first = 0;
        for (ByteSpan read : schedule.reads()) {
            while (first < ranges.size() && ranges.get(first).end() <= read.offset()) {
                first++;
            }
            // Each range's bytes go straight into its own array: no buffer of the whole read and
            // no second pass copying out of it.
            ScatteredRead scattered = new ScatteredRead(read);
            for (int i = first; i < ranges.size() && ranges.get(i).offset() < read.end(); i++) {
                if (ranges.get(i).end() > read.offset()) {
                    ByteSpan range = ranges.get(i);
                    scattered.add(range, () -> arrayOf(bytes, range));
                }
            }
            scattered.readFrom(object);
        }
        for (ByteSpan range : ranges) {
            arrayOf(bytes, range); // a range no read covers: empty
        }
        return bytes;
    }

    /**
     * The range's array, allocated when its first bytes are about to arrive rather than all before
     * the first read: the JVM zeroes a new array, and zeroing a whole batch's arrays up front (many
     * megabytes) only to overwrite them later cost a second pass over memory, the largest item in
     * the read side's profile.
     */
    private static byte[] arrayOf(Map<ByteSpan, byte[]> bytes, ByteSpan range) {
        return bytes.computeIfAbsent(range, span -> new byte[(int) span.length()]);
    }
}
