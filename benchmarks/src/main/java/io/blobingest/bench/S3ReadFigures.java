package io.blobingest.bench;

import io.blobingest.bench.ReadFigures.HoleLimitWay;
import io.blobingest.bench.ReadFigures.Way;
import io.blobingest.bench.internal.KeyValueLine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The read side over S3 with real latency: the read side's sample read through {@code s3://}
 * behind a proxy that delays each request's first response byte and may cap the bandwidth.
 *
 * @param blobs descriptors in the sample
 * @param bytes their logical bytes
 * @param objects distinct objects (packs) the sample touches
 * @param delay the proxy's delay per request/response exchange
 * @param bandwidth the proxy's cap in bytes per second; 0 for none
 * @param batch {@code ObjectLayer.readAll} in batches, with the S3 tuning the storage names
 * @param lanceStyle Lance's scheduler, written as a plain baseline: per file, ranges closer than
 *     {@value #LANCE_BLOCK_SIZE} bytes merged, requests of at most {@value #LANCE_MAX_IOP_SIZE}
 *     bytes, {@value #LANCE_IO_PARALLELISM} requests in flight
 * @param single one descriptor per {@code readAll} call: the time of {@code singleMeasured}
 *     descriptors scaled to the whole sample, and so the requests
 * @param singleMeasured how many descriptors were read one at a time
 * @param localTuning the batch read with the local disk's tuning (8 KiB holes, 8 reads in flight,
 *     one object's reads one after the other): what the per-storage tuning gains; one round
 * @param holeLimits the batch read with other hole limits, everything else the S3 tuning's
 * @param ideal total bytes over the bandwidth plus one round trip per wave of {@value
 *     #LANCE_IO_PARALLELISM} parallel requests, one request per object and batch
 * @param verified blobs whose crc32c matched their descriptor's, in every way of reading
 */
public record S3ReadFigures(
        long blobs,
        long bytes,
        long objects,
        Duration delay,
        long bandwidth,
        Way batch,
        Way lanceStyle,
        Way single,
        long singleMeasured,
        Way localTuning,
        List<HoleLimitWay> holeLimits,
        Duration ideal,
        long verified) {

    /** Lance's cloud block size (rust/lance-io/src/object_store.rs, {@code DEFAULT_CLOUD_BLOCK_SIZE}). */
    public static final long LANCE_BLOCK_SIZE = 64 * 1024;
    /** Lance's largest request (rust/lance-io/src/object_store.rs, {@code DEFAULT_MAX_IOP_SIZE}). */
    public static final long LANCE_MAX_IOP_SIZE = 16 * 1024 * 1024;
    /**
     * Lance's requests in flight on a cloud store (rust/lance-io/src/object_store.rs, {@code
     * DEFAULT_CLOUD_IO_PARALLELISM}).
     */
    public static final int LANCE_IO_PARALLELISM = 64;
    /** Timed rounds of each way but the local tuning's and one-at-a-time, after one warm-up round. */
    public static final int TIMED_ROUNDS = 3;

    public S3ReadFigures {
        holeLimits = List.copyOf(holeLimits);
    }

    /** One-at-a-time time over the batch time. */
    public double batchSpeedup() {
        return ratio(single.time(), batch.time());
    }

    public double batchVsIdeal() {
        return ratio(batch.time(), ideal);
    }

    public double batchVsLanceStyle() {
        return ratio(batch.time(), lanceStyle.time());
    }

    private static double ratio(Duration a, Duration b) {
        return (double) a.toNanos() / Math.max(b.toNanos(), 1);
    }

    public KeyValueLine toLine() {
        KeyValueLine.Builder line = KeyValueLine.builder()
                .put("blobs", blobs)
                .put("bytes", bytes)
                .put("objects", objects)
                .put("delay_us", delay.toNanos() / 1000)
                .put("bandwidth", bandwidth)
                .put("single_measured", singleMeasured)
                .put("ideal_us", ideal.toNanos() / 1000)
                .put("verified", verified)
                .put(
                        "hole_limits",
                        holeLimits.stream()
                                .map(w -> Long.toString(w.holeLimit()))
                                .collect(Collectors.joining(",")));
        put(line, "batch", batch);
        put(line, "lance", lanceStyle);
        put(line, "single", single);
        put(line, "local_tuning", localTuning);
        for (HoleLimitWay way : holeLimits) {
            put(line, "hole_" + way.holeLimit(), way.way());
        }
        return line.build();
    }

    public static S3ReadFigures fromLine(KeyValueLine line) {
        List<HoleLimitWay> holes = new ArrayList<>();
        for (String limit : line.get("hole_limits").split(",")) {
            holes.add(new HoleLimitWay(Long.parseLong(limit), way(line, "hole_" + limit)));
        }
        return new S3ReadFigures(
                line.getLong("blobs"),
                line.getLong("bytes"),
                line.getLong("objects"),
                Duration.ofNanos(line.getLong("delay_us") * 1000),
                line.getLong("bandwidth"),
                way(line, "batch"),
                way(line, "lance"),
                way(line, "single"),
                line.getLong("single_measured"),
                way(line, "local_tuning"),
                holes,
                Duration.ofNanos(line.getLong("ideal_us") * 1000),
                line.getLong("verified"));
    }

    private static void put(KeyValueLine.Builder line, String name, Way way) {
        line.put(name + "_us", way.time().toNanos() / 1000).put(name + "_requests", way.requests());
    }

    private static Way way(KeyValueLine line, String name) {
        return new Way(Duration.ofNanos(line.getLong(name + "_us") * 1000), line.getLong(name + "_requests"));
    }
}
