package io.blobingest.objectlayer.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Decides the physical reads for the ranges wanted from one object. An identical range is read
 * once; ranges separated by at most {@code holeLimit} unwanted bytes are read together, because
 * one more request costs more than a few KiB of transfer; a merged span is cut into reads of at
 * most {@code maxReadLength} bytes, which bounds each read's buffer. Pure: reads nothing.
 */
final class RangeCoalescer {

    private final long holeLimit;
    private final long maxReadLength;

    /**
     * @param maxReadLength greater than {@code holeLimit}, so that no read holds hole bytes only
     */
    RangeCoalescer(long holeLimit, long maxReadLength) {
        if (holeLimit < 0 || maxReadLength <= holeLimit) {
            throw new IllegalArgumentException("need 0 <= hole limit < max read length, found hole limit " + holeLimit
                    + " and max read length " + maxReadLength);
        }
        this.holeLimit = holeLimit;
        this.maxReadLength = maxReadLength;
    }

    ReadSchedule schedule(Collection<ByteSpan> wanted) {
        List<ByteSpan> ranges = wanted.stream()
                .filter(range -> range.length() > 0)
                .distinct()
                .sorted(Comparator.comparingLong(ByteSpan::offset).thenComparingLong(ByteSpan::length))
                .toList();
        List<ByteSpan> reads = new ArrayList<>();
        long spanStart = -1;
        long spanEnd = -1;
        for (ByteSpan range : ranges) {
            if (spanStart >= 0 && range.offset() - spanEnd <= holeLimit) {
                spanEnd = Math.max(spanEnd, range.end());
            } else {
                cut(spanStart, spanEnd, reads);
                spanStart = range.offset();
                spanEnd = range.end();
            }
        }
        cut(spanStart, spanEnd, reads);
        return new ReadSchedule(ranges, List.copyOf(reads));
    }

    private void cut(long start, long end, List<ByteSpan> reads) {
        for (long at = start; at < end; at += maxReadLength) {
            reads.add(new ByteSpan(at, Math.min(maxReadLength, end - at)));
        }
    }
}
