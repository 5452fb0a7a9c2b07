package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.objectlayer.storage.ScatterTarget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One physical read laid out as a scattered read: each wanted range's part of the read goes
 * straight into that range's array, the holes between ranges are skipped. Bytes that two
 * overlapping ranges share are read once, into the earlier range, and copied into the later one.
 */
final class ScatteredRead {

    /** Bytes {@code [offset, offset + length)} of the object, held at {@code array[arrayOffset]}. */
    private record Placed(long offset, byte[] array, int arrayOffset, int length) {}

    private final ByteSpan read;
    private final List<ScatterTarget> targets = new ArrayList<>();
    private final List<Placed> placed = new ArrayList<>();
    private final List<Placed> copies = new ArrayList<>();
    private long start = -1;
    private long cursor;

    ScatteredRead(ByteSpan read) {
        this.read = read;
        this.cursor = read.offset();
    }

    /**
     * Adds a range the read overlaps, whose bytes go to {@code array} (as long as the range).
     * Ranges come by offset.
     */
    void add(ByteSpan range, byte[] array) {
        long from = Math.max(range.offset(), read.offset());
        long to = Math.min(range.end(), read.end());
        if (from < cursor) {
            long shared = Math.min(to, cursor);
            copies.add(new Placed(from, array, (int) (from - range.offset()), (int) (shared - from)));
            from = shared;
        }
        if (from >= to) {
            return;
        }
        if (start < 0) {
            start = from;
        } else if (from > cursor) {
            targets.add(ScatterTarget.skip(from - cursor));
        }
        int arrayOffset = (int) (from - range.offset());
        int length = (int) (to - from);
        targets.add(ScatterTarget.into(array, arrayOffset, length));
        placed.add(new Placed(from, array, arrayOffset, length));
        cursor = to;
    }

    /** Reads the bytes of every added range in one scattered read, then fills in shared bytes. */
    void readFrom(ReadableObject object) throws IOException {
        if (targets.isEmpty()) {
            return;
        }
        object.readScattered(start, targets);
        for (Placed copy : copies) {
            copyFromPlaced(copy);
        }
    }

    private void copyFromPlaced(Placed copy) {
        for (Placed source : placed) {
            long from = Math.max(copy.offset(), source.offset());
            long to = Math.min(copy.offset() + copy.length(), source.offset() + source.length());
            if (from < to) {
                System.arraycopy(
                        source.array(), source.arrayOffset() + (int) (from - source.offset()),
                        copy.array(), copy.arrayOffset() + (int) (from - copy.offset()),
                        (int) (to - from));
            }
        }
    }
}
