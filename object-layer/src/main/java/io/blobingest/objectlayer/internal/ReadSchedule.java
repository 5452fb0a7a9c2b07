package io.blobingest.objectlayer.internal;

import java.util.List;

/**
 * How the ranges wanted from one object are read.
 *
 * @param ranges the distinct non-empty ranges wanted, by offset
 * @param reads the physical reads, by offset, which together cover every range
 */
public record ReadSchedule(List<ByteSpan> ranges, List<ByteSpan> reads) {}
