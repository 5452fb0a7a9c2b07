package io.blobingest.bench.internal;

import io.blobingest.bench.SteadyFigures;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Picks the steady phase ({@link SteadyFigures}) out of the samples a {@link SteadyStateMonitor} took. */
final class SteadyWindow {

    /**
     * One observation of a running contender.
     *
     * @param nanos when it was taken ({@link System#nanoTime()})
     * @param committedBytes value bytes of the input its consumer group had committed
     * @param cpuNanos CPU time of its JVM so far
     */
    record Sample(long nanos, long committedBytes, long cpuNanos) {}

    private SteadyWindow() {}

    /**
     * From the first sample at or past {@link SteadyFigures#FROM_FRACTION} of {@code totalBytes} to
     * the first at or past {@link SteadyFigures#TO_FRACTION}; empty if the samples never get there
     * or both ends fall on one commit (a run too short, or one checkpoint for most of the input).
     *
     * @param samples in the order they were taken
     */
    static Optional<SteadyFigures> select(List<Sample> samples, long totalBytes) {
        Optional<Sample> from = firstAtLeast(samples, fromBytes(totalBytes));
        Optional<Sample> to = firstAtLeast(samples, toBytes(totalBytes));
        if (from.isEmpty()
                || to.isEmpty()
                || to.get().committedBytes() <= from.get().committedBytes()) {
            return Optional.empty();
        }
        return Optional.of(new SteadyFigures(
                to.get().committedBytes() - from.get().committedBytes(),
                Duration.ofNanos(to.get().nanos() - from.get().nanos()),
                Duration.ofNanos(to.get().cpuNanos() - from.get().cpuNanos())));
    }

    /** The committed bytes at which the window starts: a sample with at least these many is in it. */
    static long fromBytes(long totalBytes) {
        return Math.max((long) Math.ceil(totalBytes * SteadyFigures.FROM_FRACTION), 1);
    }

    /** The committed bytes at which the window ends. */
    static long toBytes(long totalBytes) {
        return Math.max((long) Math.ceil(totalBytes * SteadyFigures.TO_FRACTION), 1);
    }

    private static Optional<Sample> firstAtLeast(List<Sample> samples, long bytes) {
        return samples.stream()
                .filter(sample -> sample.committedBytes() >= bytes)
                .findFirst();
    }
}
