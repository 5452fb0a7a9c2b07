package io.blobingest.bench;

import io.blobingest.bench.internal.KeyValueLine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The read side on what blob-ingest wrote: the same sample of Packed descriptors read three ways,
 * and the first of them again with wider hole limits; each time the median of {@value
 * #TIMED_ROUNDS} timed rounds, each I/O request counted.
 *
 * @param blobs descriptors in the sample
 * @param packedBlobs Packed descriptors the sample was drawn from
 * @param bytes logical bytes of the sample
 * @param batch through {@code ObjectLayer.readAll}, in batches
 * @param single through {@code ObjectLayer.readAll}, one descriptor per call
 * @param raw positional reads of exactly the payload ranges, one per blob (the floor)
 * @param verified blobs whose crc32c matched their descriptor's, in every way of reading
 * @param widerHoles the batch read again with wider hole limits than the Object Layer's default:
 *     what fewer requests cost in bytes read and time
 */
public record ReadFigures(
        long blobs,
        long packedBlobs,
        long bytes,
        Way batch,
        Way single,
        Way raw,
        long verified,
        List<HoleLimitWay> widerHoles) {

    public ReadFigures {
        widerHoles = List.copyOf(widerHoles);
    }

    /** Timed rounds of each way, after one warm-up round. */
    public static final int TIMED_ROUNDS = 5;

    /** One way of reading the sample: the median time of the timed rounds and its I/O requests. */
    public record Way(Duration time, long requests) {}

    /** The batch read with the Object Layer's hole limit set to {@code holeLimit} bytes. */
    public record HoleLimitWay(long holeLimit, Way way) {}

    public double batchVsRaw() {
        return (double) batch.time().toNanos() / Math.max(raw.time().toNanos(), 1);
    }

    /** How many times more I/O requests reading one descriptor at a time takes than a batch read. */
    public double requestsSingleVsBatch() {
        return (double) single.requests() / Math.max(batch.requests(), 1);
    }

    public KeyValueLine toLine() {
        KeyValueLine.Builder line = KeyValueLine.builder()
                .put("blobs", blobs)
                .put("packed_blobs", packedBlobs)
                .put("bytes", bytes)
                .put("batch_us", batch.time().toNanos() / 1000)
                .put("batch_requests", batch.requests())
                .put("single_us", single.time().toNanos() / 1000)
                .put("single_requests", single.requests())
                .put("raw_us", raw.time().toNanos() / 1000)
                .put("raw_requests", raw.requests())
                .put("verified", verified)
                .put(
                        "hole_limits",
                        widerHoles.stream()
                                .map(w -> Long.toString(w.holeLimit()))
                                .collect(Collectors.joining(",")));
        for (HoleLimitWay wider : widerHoles) {
            line.put("hole_" + wider.holeLimit() + "_us", wider.way().time().toNanos() / 1000)
                    .put("hole_" + wider.holeLimit() + "_requests", wider.way().requests());
        }
        return line.build();
    }

    public static ReadFigures fromLine(KeyValueLine line) {
        return new ReadFigures(
                line.getLong("blobs"),
                line.getLong("packed_blobs"),
                line.getLong("bytes"),
                way(line, "batch"),
                way(line, "single"),
                way(line, "raw"),
                line.getLong("verified"),
                widerHoles(line));
    }

    private static List<HoleLimitWay> widerHoles(KeyValueLine line) {
        List<HoleLimitWay> ways = new ArrayList<>();
        for (String limit : line.get("hole_limits").split(",")) {
            ways.add(new HoleLimitWay(Long.parseLong(limit), way(line, "hole_" + limit)));
        }
        return ways;
    }

    private static Way way(KeyValueLine line, String name) {
        return new Way(Duration.ofNanos(line.getLong(name + "_us") * 1000), line.getLong(name + "_requests"));
    }
}
