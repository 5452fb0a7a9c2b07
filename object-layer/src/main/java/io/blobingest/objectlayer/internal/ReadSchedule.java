package io.blobingest.objectlayer.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * How the ranges wanted from one object are read.
 *
 * @param ranges the distinct non-empty ranges wanted, by offset
 * @param reads the physical reads, by offset, which together cover every range
 */
record ReadSchedule(List<ByteSpan> ranges, List<ByteSpan> reads) {

    /**
     * Cuts the schedule into parts that can be read at once by different threads: consecutive
     * reads of at least {@code partBytes} together (the last part may be shorter), cut only
     * between two reads that no range spans, each range in the part whose reads cover it. Never
     * empty: a schedule without reads is one part.
     */
    List<ReadSchedule> split(long partBytes) {
        List<ReadSchedule> parts = new ArrayList<>();
        List<ByteSpan> partReads = new ArrayList<>();
        List<ByteSpan> partRanges = new ArrayList<>();
        long bytes = 0;
        long rangesEnd = 0;
        int range = 0;
        for (int read = 0; read < reads.size(); read++) {
            ByteSpan current = reads.get(read);
            partReads.add(current);
            bytes += current.length();
            while (range < ranges.size() && ranges.get(range).offset() < current.end()) {
                rangesEnd = Math.max(rangesEnd, ranges.get(range).end());
                partRanges.add(ranges.get(range++));
            }
            if (bytes >= partBytes && read < reads.size() - 1 && rangesEnd <= current.end()) {
                parts.add(new ReadSchedule(List.copyOf(partRanges), List.copyOf(partReads)));
                partReads.clear();
                partRanges.clear();
                bytes = 0;
            }
        }
        partRanges.addAll(ranges.subList(range, ranges.size()));
        if (parts.isEmpty() || !partReads.isEmpty() || !partRanges.isEmpty()) {
            parts.add(new ReadSchedule(List.copyOf(partRanges), List.copyOf(partReads)));
        }
        return parts;
    }
}
