package io.blobingest.bench;

import io.blobingest.bench.internal.KeyValueLine;
import java.time.Duration;

/**
 * Freshness at one checkpoint interval: blob-ingest running unbounded while records are produced
 * at a steady rate, each latency from the record's produce timestamp to the moment a {@code
 * read_committed} consumer of the descriptor topic got its descriptor (the descriptor record
 * carries the input record's timestamp).
 *
 * @param interval the job's checkpoint interval
 * @param bytesPerSecond the input rate records were produced at
 * @param records descriptors measured: those of records produced after the first descriptor was
 *     visible (the job was running) until the end of the measured period
 * @param p50 median latency
 * @param p99 99th percentile latency (nearest rank)
 * @param max the largest latency
 */
public record FreshnessFigures(
        Duration interval, long bytesPerSecond, long records, Duration p50, Duration p99, Duration max) {

    /** p99 over the checkpoint interval: 1 is one commit cycle's worth. */
    public double p99OverInterval() {
        return (double) p99.toNanos() / Math.max(interval.toNanos(), 1);
    }

    public KeyValueLine toLine() {
        return KeyValueLine.builder()
                .put("interval_ms", interval.toMillis())
                .put("bytes_per_second", bytesPerSecond)
                .put("records", records)
                .put("p50_ms", p50.toMillis())
                .put("p99_ms", p99.toMillis())
                .put("max_ms", max.toMillis())
                .build();
    }

    public static FreshnessFigures fromLine(KeyValueLine line) {
        return new FreshnessFigures(
                Duration.ofMillis(line.getLong("interval_ms")),
                line.getLong("bytes_per_second"),
                line.getLong("records"),
                Duration.ofMillis(line.getLong("p50_ms")),
                Duration.ofMillis(line.getLong("p99_ms")),
                Duration.ofMillis(line.getLong("max_ms")));
    }
}
