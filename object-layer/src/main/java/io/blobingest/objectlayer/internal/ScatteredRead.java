package io.blobingest.objectlayer.internal;

import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.objectlayer.storage.ScatterTarget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One physical read laid out as a scattered read: each wanted range's part of the read goes
 * straight into that range's array, the holes between ranges are skipped. Bytes that two
 * overlapping ranges share are read once, into the earlier range, and copied into the later one.
 */
final class ScatteredRead {

    /** A target and the object offset its bytes come from. */
    private record Placed(long offset, ScatterTarget target) {
        long end() {
            return offset + target.length();
        }
    }

    /** Bytes {@code [offset, offset + length)} of the object, which go to {@code array[arrayOffset]}. */
    private record Copy(long offset, Supplier<byte[]> array, int arrayOffset, int length) {}

    private final ByteSpan read;
    private final List<ScatterTarget> targets = new ArrayList<>();
    private final List<Placed> placed = new ArrayList<>();
    private final List<Copy> copies = new ArrayList<>();
    private long start = -1;
    private long cursor;

    ScatteredRead(ByteSpan read) {
        this.read = read;
        this.cursor = read.offset();
    }

    /**
     * Adds a range the read overlaps, whose bytes go to the array {@code array} supplies (as long
     * as the range); it is asked for when the range's bytes are about to arrive. Ranges come by
     * offset.
     */
    void add(ByteSpan range, Supplier<byte[]> array) {
        long from = Math.max(range.offset(), read.offset());
        long to = Math.min(range.end(), read.end());
        if (from < cursor) {
            long shared = Math.min(to, cursor);
            copies.add(new Copy(from, array, (int) (from - range.offset()), (int) (shared - from)));
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
        ScatterTarget target = ScatterTarget.into(array, (int) (from - range.offset()), (int) (to - from));
        targets.add(target);
        placed.add(new Placed(from, target));
        cursor = to;
    }

    /** Reads the bytes of every added range in one scattered read, then fills in shared bytes. */
    void readFrom(ReadableObject object) throws IOException {
        if (targets.isEmpty()) {
            return;
        }
        object.readScattered(start, targets);
        for (Copy copy : copies) {
            copyFromPlaced(copy);
        }
    }

    private void copyFromPlaced(Copy copy) {
        for (Placed source : placed) {
            long from = Math.max(copy.offset(), source.offset());
            long to = Math.min(copy.offset() + copy.length(), source.end());
            if (from < to) {
                System.arraycopy(
                        source.target().array(),
                        source.target().offset() + (int) (from - source.offset()),
                        copy.array().get(),
                        copy.arrayOffset() + (int) (from - copy.offset()),
                        (int) (to - from));
            }
        }
    }
}
