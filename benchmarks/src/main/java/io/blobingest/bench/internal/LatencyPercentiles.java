package io.blobingest.bench.internal;

import java.util.Arrays;

/**
 * Percentiles of a set of latencies by the nearest-rank method: the p-th percentile is the
 * smallest latency that at least p% of all are at or below; so it is always a measured latency.
 */
record LatencyPercentiles(long p50, long p99, long max) {

    /** @param latencies in any unit, at least one */
    static LatencyPercentiles of(long[] latencies) {
        if (latencies.length == 0) {
            throw new IllegalArgumentException("no latencies to take percentiles of");
        }
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        return new LatencyPercentiles(rank(sorted, 50), rank(sorted, 99), sorted[sorted.length - 1]);
    }

    private static long rank(long[] sorted, int percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }
}
