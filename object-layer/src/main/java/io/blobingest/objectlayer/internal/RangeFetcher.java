package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.storage.ReadableObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Carries out a {@link ReadSchedule} on one object, each read as one scattered read, and hands
 * each range its bytes: the reads one after the other, or each as a task of its own.
 */
final class RangeFetcher {

    /** The largest byte array the JVM reliably allocates. */
    static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

    private RangeFetcher() {}

    /** @return the bytes of every range in {@code schedule.ranges()} */
    static Map<ByteSpan, byte[]> fetch(ReadableObject object, ReadSchedule schedule) throws IOException {
        checkFitsInArrays(object, schedule);
        Map<ByteSpan, byte[]> bytes = new HashMap<>();
        fetchReads(object, schedule.ranges(), schedule.reads(), bytes);
        return withEmptyArraysForUnread(schedule, bytes);
    }

    /**
     * Like {@link #fetch}, with each read handed to {@code runner} as a task of its own, so that
     * reads of one object can be in flight together. A range cut across two reads gets its array
     * once: {@code bytes} is concurrent.
     *
     * @param runner runs every task and returns when all have ended, or throws the first failure
     */
    static Map<ByteSpan, byte[]> fetchEachReadApart(ReadableObject object, ReadSchedule schedule, ReadRunner runner)
            throws IOException {
        checkFitsInArrays(object, schedule);
        Map<ByteSpan, byte[]> bytes = new ConcurrentHashMap<>();
        List<IoTask> tasks = new ArrayList<>(schedule.reads().size());
        for (ByteSpan read : schedule.reads()) {
            tasks.add(() -> fetchReads(object, schedule.ranges(), List.of(read), bytes));
        }
        runner.runAll(tasks);
        return withEmptyArraysForUnread(schedule, bytes);
    }

    /** A piece of I/O work. */
    @FunctionalInterface
    interface IoTask {
        void run() throws IOException;
    }

    /** Runs tasks, possibly at once, and returns when every one has ended. */
    @FunctionalInterface
    interface ReadRunner {
        void runAll(List<IoTask> tasks) throws IOException;
    }

    private static void checkFitsInArrays(ReadableObject object, ReadSchedule schedule) throws IOException {
        for (ByteSpan range : schedule.ranges()) {
            if (range.length() > MAX_ARRAY_LENGTH) {
                throw new IOException(object.location() + ": the " + range.length() + " bytes at offset "
                        + range.offset() + " do not fit in one array (at most " + MAX_ARRAY_LENGTH + " bytes)");
            }
        }
    }

    private static Map<ByteSpan, byte[]> withEmptyArraysForUnread(ReadSchedule schedule, Map<ByteSpan, byte[]> bytes) {
        for (ByteSpan range : schedule.ranges()) {
            arrayOf(bytes, range); // a range no read covers: empty
        }
        return bytes;
    }

    /** Carries out {@code reads} (by offset), filling the arrays of the {@code ranges} they overlap. */
    private static void fetchReads(
            ReadableObject object, List<ByteSpan> ranges, List<ByteSpan> reads, Map<ByteSpan, byte[]> bytes)
            throws IOException {
        int first = 0;
        for (ByteSpan read : reads) {
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
