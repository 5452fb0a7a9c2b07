package io.blobingest.job.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One workload's figures, all measured in the same run, and the ratios the targets are about.
 * Rates of every contender are over the same input: the records and value bytes of the topic.
 *
 * @param records records preloaded into the input topic
 * @param bytes their value bytes
 */
public record WorkloadOutcome(BenchWorkload workload, long records, long bytes, ContenderFigures consume,
        ContenderFigures filesink, ContenderFigures ingest, ReadFigures read, Optional<S3ReadFigures> s3Read) {

    public static final double TARGET_INGEST_VS_CONSUME = 0.8;
    public static final double TARGET_INGEST_VS_FILESINK = 1.5;
    public static final double TARGET_READ_VS_RAW = 1.2;
    public static final double TARGET_READ_REQUESTS_RATIO = 10;
    public static final double TARGET_S3_BATCH_SPEEDUP = 20;
    public static final double TARGET_S3_VS_IDEAL = 1.5;
    public static final double TARGET_S3_VS_LANCE_STYLE = 1.0;
    /** What a RESULT line says for a figure this run did not measure. */
    public static final String NOT_MEASURED = "n/a";

    public List<ContenderFigures> contenders() {
        return List.of(consume, filesink, ingest);
    }

    /** Megabytes (10^6 bytes) of input per second of the contender's work. */
    public double megabytesPerSecond(ContenderFigures contender) {
        return bytes / 1e6 / seconds(contender.work());
    }

    public double blobsPerSecond(ContenderFigures contender) {
        return records / seconds(contender.work());
    }

    /** blob-ingest's bytes/s over the plain consumer's. */
    public double ingestVsConsume() {
        return seconds(consume.work()) / seconds(ingest.work());
    }

    /** blob-ingest's bytes/s over the KafkaSource-to-FileSink job's. */
    public double ingestVsFilesink() {
        return seconds(filesink.work()) / seconds(ingest.work());
    }

    /**
     * What went wrong: a contender that did not read every record, a blob the read side could not
     * verify. Empty when the figures can be trusted.
     */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        for (ContenderFigures contender : contenders()) {
            if (contender.records() != records) {
                problems.add(String.format(Locale.ROOT, "%s: %s read %,d records, the topic holds %,d",
                        workload.label(), contender.contender(), contender.records(), records));
            }
        }
        if (read.verified() != read.blobs()) {
            problems.add(String.format(Locale.ROOT, "%s: the read side verified %,d of %,d blobs",
                    workload.label(), read.verified(), read.blobs()));
        }
        s3Read.filter(s3 -> s3.verified() != s3.blobs()).ifPresent(s3 -> problems.add(String.format(Locale.ROOT,
                "%s: the S3 read side verified %,d of %,d blobs", workload.label(), s3.verified(), s3.blobs())));
        return problems;
    }

    /** {@code RESULT workload=mixed ingest_vs_consume=0.xx ingest_vs_filesink=x.xx read_vs_raw=x.xx read_requests_ratio=xx} */
    public String resultLine() {
        return String.format(Locale.ROOT,
                "RESULT workload=%s ingest_vs_consume=%.2f ingest_vs_filesink=%.2f read_vs_raw=%.2f read_requests_ratio=%.0f",
                workload.label(), ingestVsConsume(), ingestVsFilesink(), read.batchVsRaw(), read.requestsSingleVsBatch());
    }

    /**
     * {@code RESULT workload=W steady_vs_filesink=x.xx steady_vs_consume=x.xx freshness_p99_over_interval=x.xx
     * s3_batch_speedup=xx s3_vs_ideal=x.xx s3_vs_lance_style=x.xx}; a figure this run did not
     * measure is {@value #NOT_MEASURED}.
     */
    public String streamingResultLine() {
        return String.format(Locale.ROOT,
                "RESULT workload=%s steady_vs_filesink=%s steady_vs_consume=%s freshness_p99_over_interval=%s"
                        + " s3_batch_speedup=%s s3_vs_ideal=%s s3_vs_lance_style=%s",
                workload.label(), NOT_MEASURED, NOT_MEASURED, NOT_MEASURED,
                s3Read.map(s3 -> String.format(Locale.ROOT, "%.0f", s3.batchSpeedup())).orElse(NOT_MEASURED),
                s3Read.map(s3 -> String.format(Locale.ROOT, "%.2f", s3.batchVsIdeal())).orElse(NOT_MEASURED),
                s3Read.map(s3 -> String.format(Locale.ROOT, "%.2f", s3.batchVsLanceStyle())).orElse(NOT_MEASURED));
    }

    private static double seconds(Duration duration) {
        return Math.max(duration.toNanos(), 1) / 1e9;
    }
}
