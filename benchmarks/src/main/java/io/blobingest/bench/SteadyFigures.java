package io.blobingest.bench;

import java.time.Duration;

/**
 * A contender's steady phase: from the first instant its committed input reached {@value
 * #FROM_FRACTION} of the topic's bytes to the first it reached {@value #TO_FRACTION}. Committed
 * input moves when a checkpoint completes for the Flink jobs (their Kafka sources commit offsets
 * then) and after every poll for {@code consume}; so for the Flink jobs the window runs from the
 * first completed checkpoint after a quarter of the input to the first at or after 90%, and JVM
 * start-up, JIT warm-up and the last checkpoint's commit stay outside it.
 *
 * @param bytes value bytes committed within the window
 * @param time the window's length
 * @param cpu CPU time of the contender's JVM within the window
 */
public record SteadyFigures(long bytes, Duration time, Duration cpu) {

    public static final double FROM_FRACTION = 0.25;
    public static final double TO_FRACTION = 0.9;

    public double megabytesPerSecond() {
        return bytes / 1e6 / Math.max(time.toNanos() / 1e9, 1e-9);
    }

    /** CPU seconds per 10^9 bytes of input. */
    public double cpuSecondsPerGigabyte() {
        return cpu.toNanos() / 1e9 / Math.max(bytes / 1e9, 1e-12);
    }
}
