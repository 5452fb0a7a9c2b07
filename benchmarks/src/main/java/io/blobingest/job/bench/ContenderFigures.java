package io.blobingest.job.bench;

import io.blobingest.job.bench.internal.KeyValueLine;
import java.time.Duration;

/**
 * What one contender measured in its own JVM.
 *
 * @param contender {@code consume}, {@code filesink} or {@code blob-ingest}
 * @param records input records it accounted for: read (consume, filesink), or turned into a
 *     descriptor or a dead letter (blob-ingest)
 * @param bytes bytes it read (consume, filesink) or placed (blob-ingest: logical blob bytes)
 * @param work time from its first read to its last commit, JVM and cluster start-up excluded
 * @param cpu CPU time of its whole JVM, start-up included
 * @param peakResidentBytes peak resident set of its JVM
 */
public record ContenderFigures(
        String contender, long records, long bytes, Duration work, Duration cpu, long peakResidentBytes) {

    public KeyValueLine toLine() {
        return KeyValueLine.builder()
                .put("contender", contender)
                .put("records", records)
                .put("bytes", bytes)
                .put("work_ms", work.toMillis())
                .put("cpu_ms", cpu.toMillis())
                .put("peak_rss", peakResidentBytes)
                .build();
    }

    public static ContenderFigures fromLine(KeyValueLine line) {
        return new ContenderFigures(
                line.get("contender"),
                line.getLong("records"),
                line.getLong("bytes"),
                Duration.ofMillis(line.getLong("work_ms")),
                Duration.ofMillis(line.getLong("cpu_ms")),
                line.getLong("peak_rss"));
    }
}
