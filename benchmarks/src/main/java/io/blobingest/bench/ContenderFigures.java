package io.blobingest.bench;

import io.blobingest.bench.internal.KeyValueLine;
import java.time.Duration;

/**
 * What one contender measured in its own JVM.
 *
 * @param contender {@code consume}, {@code filesink} or {@code blob-ingest}, or the name of one of
 *     several runs of a contender ({@code blob-ingest-within-job})
 * @param records input records it accounted for: read (consume, filesink), or turned into a
 *     descriptor or a dead letter (blob-ingest)
 * @param bytes bytes it read (consume, filesink) or placed (blob-ingest: logical blob bytes)
 * @param work time from its first read to its last commit, JVM and cluster start-up excluded
 * @param cpu CPU time of its whole JVM, start-up included
 * @param peakResidentBytes peak resident set of its JVM
 * @param restarts times its job failed over and restarted from a checkpoint: its time and CPU then include
 *     the replay, and are no measure of the contender
 */
public record ContenderFigures(
        String contender,
        long records,
        long bytes,
        Duration work,
        Duration cpu,
        long peakResidentBytes,
        long restarts) {

    /** The same figures under another name: a contender run more than once, each time differently. */
    public ContenderFigures named(String name) {
        return new ContenderFigures(name, records, bytes, work, cpu, peakResidentBytes, restarts);
    }

    public KeyValueLine toLine() {
        return KeyValueLine.builder()
                .put("contender", contender)
                .put("records", records)
                .put("bytes", bytes)
                .put("work_ms", work.toMillis())
                .put("cpu_ms", cpu.toMillis())
                .put("peak_rss", peakResidentBytes)
                .put("restarts", restarts)
                .build();
    }

    public static ContenderFigures fromLine(KeyValueLine line) {
        return new ContenderFigures(
                line.get("contender"),
                line.getLong("records"),
                line.getLong("bytes"),
                Duration.ofMillis(line.getLong("work_ms")),
                Duration.ofMillis(line.getLong("cpu_ms")),
                line.getLong("peak_rss"),
                line.getLong("restarts"));
    }
}
