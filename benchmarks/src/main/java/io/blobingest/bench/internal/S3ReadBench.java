package io.blobingest.bench.internal;

import io.blobingest.bench.ReadFigures;
import io.blobingest.bench.S3ReadFigures;
import io.blobingest.bench.internal.ReadSample.Sampled;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.PhysicalRange;
import io.blobingest.objectlayer.storage.BlobStorage;
import io.blobingest.objectlayer.storage.ReadTuning;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.storage.FlinkFileSystemStorage;
import io.blobingest.storage.FlinkFileSystems;
import io.blobingest.storage.S3Options;
import io.blobingest.testkit.net.LatencyProxy;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;

/**
 * The read side over S3 with real latency. Copies what blob-ingest wrote under a local base into
 * an S3 server in this JVM ({@link BenchS3Server}), puts a {@link LatencyProxy} in front of it,
 * points Flink's {@code s3://} file system at the proxy, and reads the read side's sample (same
 * seed, same descriptors) through it: Object Layer batches with the S3 tuning the storage names,
 * the same with other hole limits and with the local disk's tuning, one descriptor at a time, and
 * Lance's scheduler as a plain baseline ({@link LanceStyleReader}). Every way reads the same blobs
 * in the same order, and every blob is checked against its descriptor's crc32c.
 */
final class S3ReadBench {

    /** Hole limits the S3 batch read is repeated with, around the S3 tuning's. */
    static final List<Long> HOLE_LIMITS = List.of(64L * 1024, 1024L * 1024);
    /** Descriptors read one at a time: at several round trips each, the whole sample would take minutes. */
    static final int SINGLE_MEASURED = 400;

    private static final String PLUGINS_DIR_PROPERTY = "blob-ingest.plugins-dir";
    /** Above the requests in flight (64) plus the streams' HEADs, so no request waits for a connection. */
    private static final String CONNECTIONS = "256";

    private final URI localBase;
    private final int sampleSize;
    private final long seed;
    private final Duration delay;
    private final long bandwidth;
    private final Path scratch;

    /**
     * @param bandwidth bytes per second of the proxy's link; 0: no cap
     * @param scratch a directory for the S3 client's buffers
     */
    S3ReadBench(URI localBase, int sampleSize, long seed, Duration delay, long bandwidth, Path scratch) {
        this.localBase = localBase;
        this.sampleSize = sampleSize;
        this.seed = seed;
        this.delay = delay;
        this.bandwidth = bandwidth;
        this.scratch = scratch;
    }

    S3ReadFigures run() throws Exception {
        ReadSample sample = ReadSample.draw(localBase, sampleSize, seed);
        List<List<Sampled>> batches = sample.batches();
        try (BenchS3Server s3 = new BenchS3Server();
                LatencyProxy proxy = new LatencyProxy(s3.address(), delay, bandwidth)) {
            URI base = s3.upload(Path.of(localBase), "blob-ingest");
            initializeFileSystems(proxy.port());
            return read(sample, batches, base, proxy);
        } finally {
            // Later readers in this JVM must not reach the stopped server through Flink's cache.
            org.apache.flink.core.fs.FileSystem.initialize(new Configuration(), null);
        }
    }

    private S3ReadFigures read(ReadSample sample, List<List<Sampled>> batches, URI base, LatencyProxy proxy)
            throws IOException {
        CountingBlobStorage storage = new CountingBlobStorage(new FlinkFileSystemStorage());
        List<AutoCloseable> layers = new ArrayList<>();
        ExecutorService lancePool = Executors.newFixedThreadPool(S3ReadFigures.LANCE_IO_PARALLELISM);
        try {
            ObjectLayer layer = track(layers, ObjectLayer.builder(storage).build());
            ReadWay batch = new ReadWay(
                    storage::takeReads, chunk -> layer.readAll(requests(chunk, base)), S3ReadFigures.TIMED_ROUNDS);
            LanceStyleReader lance = new LanceStyleReader(storage, lancePool);
            ReadWay lanceStyle = new ReadWay(
                    storage::takeReads, chunk -> lance.read(ranges(chunk, base)), S3ReadFigures.TIMED_ROUNDS);
            List<ReadWay> holeWays = new ArrayList<>();
            for (long holeLimit : HOLE_LIMITS) {
                ObjectLayer wider = track(
                        layers,
                        ObjectLayer.builder(storage).holeLimit(holeLimit).build());
                holeWays.add(new ReadWay(
                        storage::takeReads, chunk -> wider.readAll(requests(chunk, base)), S3ReadFigures.TIMED_ROUNDS));
            }
            List<ReadWay> timed = new ArrayList<>(List.of(batch, lanceStyle));
            timed.addAll(holeWays);
            List<String> names = new ArrayList<>(List.of("batches", "Lance-style"));
            HOLE_LIMITS.forEach(limit -> names.add("batches, hole limit " + limit / 1024 + " KiB"));
            for (ReadWay way : timed) {
                way.round(batches);
            }
            long verified = Long.MAX_VALUE;
            long[] exchanges = new long[timed.size()];
            long[] responseBytes = new long[timed.size()];
            for (int round = 0; round < S3ReadFigures.TIMED_ROUNDS; round++) {
                for (int i = 0; i < timed.size(); i++) {
                    long exchangesBefore = proxy.exchanges();
                    long bytesBefore = proxy.responseBytes();
                    verified = Math.min(verified, timed.get(i).timedRound(batches, round));
                    exchanges[i] += proxy.exchanges() - exchangesBefore;
                    responseBytes[i] += proxy.responseBytes() - bytesBefore;
                }
            }
            // What crossed the link, per round: HEADs (one per stream a read opens) are HTTP
            // exchanges the Object Layer's request count does not see, hole bytes are response bytes.
            for (int i = 0; i < timed.size(); i++) {
                System.err.printf(
                        "read-side-s3: %s: %,d HTTP exchanges (GET and HEAD) and %,.1f MB of responses per round,"
                                + " for %,d reads%n",
                        names.get(i),
                        exchanges[i] / S3ReadFigures.TIMED_ROUNDS,
                        responseBytes[i] / 1e6 / S3ReadFigures.TIMED_ROUNDS,
                        timed.get(i).median().requests());
            }

            ObjectLayer local =
                    track(layers, ObjectLayer.builder(tunedAsLocalDisk(storage)).build());
            ReadWay localTuning = new ReadWay(storage::takeReads, chunk -> local.readAll(requests(chunk, base)), 1);
            verified = Math.min(verified, localTuning.timedRound(batches, 0));

            List<List<Sampled>> singles = spread(sample.blobs(), SINGLE_MEASURED);
            ReadWay single = new ReadWay(
                    storage::takeReads,
                    chunk -> {
                        List<byte[]> blobs = new ArrayList<>(chunk.size());
                        for (Sampled s : chunk) {
                            blobs.add(layer.readAll(List.of(s.request(base))).get(0));
                        }
                        return blobs;
                    },
                    1);
            single.timedRound(singles, 0);
            long measured = singles.get(0).size();
            ReadFigures.Way singleMeasured = single.median();
            double scale = (double) sample.blobs().size() / measured;
            ReadFigures.Way singleScaled = new ReadFigures.Way(
                    Duration.ofNanos((long) (singleMeasured.time().toNanos() * scale)),
                    Math.round(singleMeasured.requests() * scale));

            List<ReadFigures.HoleLimitWay> holes = new ArrayList<>();
            for (int i = 0; i < HOLE_LIMITS.size(); i++) {
                holes.add(new ReadFigures.HoleLimitWay(
                        HOLE_LIMITS.get(i), holeWays.get(i).median()));
            }
            long objects = sample.blobs().stream()
                    .map(s -> s.range().location())
                    .distinct()
                    .count();
            return new S3ReadFigures(
                    sample.blobs().size(),
                    sample.bytes(),
                    objects,
                    delay,
                    bandwidth,
                    batch.median(),
                    lanceStyle.median(),
                    singleScaled,
                    measured,
                    localTuning.median(),
                    holes,
                    ideal(sample, batches),
                    verified);
        } finally {
            lancePool.shutdownNow();
            for (AutoCloseable closeable : layers) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    throw new IOException("closing an object layer failed", e);
                }
            }
        }
    }

    /** The storage, answering the local disk's tuning for every object: what S3 reads would be without their own. */
    private static BlobStorage tunedAsLocalDisk(BlobStorage storage) {
        return new BlobStorage() {
            @Override
            public ReadableObject open(URI location) throws IOException {
                return storage.open(location);
            }

            @Override
            public ReadTuning readTuning(URI location) {
                return ReadTuning.LOCAL;
            }
        };
    }

    /**
     * Bytes over the bandwidth, plus one round trip per wave of parallel requests: one request per object and batch.
     */
    private Duration ideal(ReadSample sample, List<List<Sampled>> batches) {
        long waves = 0;
        for (List<Sampled> chunk : batches) {
            long objects =
                    chunk.stream().map(s -> s.range().location()).distinct().count();
            waves += (objects + S3ReadFigures.LANCE_IO_PARALLELISM - 1) / S3ReadFigures.LANCE_IO_PARALLELISM;
        }
        long transfer = bandwidth > 0 ? (long) (sample.bytes() * 1e9 / bandwidth) : 0;
        return Duration.ofNanos(transfer + waves * delay.toNanos());
    }

    /** {@code count} descriptors spread evenly over the sample, as one chunk. */
    private static List<List<Sampled>> spread(List<Sampled> blobs, int count) {
        List<Sampled> chosen = new ArrayList<>();
        double step = Math.max(1.0, (double) blobs.size() / count);
        for (double at = 0; at < blobs.size() && chosen.size() < count; at += step) {
            chosen.add(blobs.get((int) at));
        }
        return List.of(chosen);
    }

    private static <T extends AutoCloseable> T track(List<AutoCloseable> closeables, T closeable) {
        closeables.add(closeable);
        return closeable;
    }

    private static List<BlobRequest> requests(List<Sampled> chunk, URI base) {
        return chunk.stream().map(s -> s.request(base)).toList();
    }

    private List<PhysicalRange> ranges(List<Sampled> chunk, URI base) {
        List<PhysicalRange> ranges = new ArrayList<>(chunk.size());
        for (Sampled s : chunk) {
            URI relative = localBase.relativize(s.range().location());
            ranges.add(new PhysicalRange(
                    base.resolve(relative), s.range().offset(), s.range().length()));
        }
        return ranges;
    }

    private void initializeFileSystems(int port) throws IOException {
        String plugins = System.getProperty(PLUGINS_DIR_PROPERTY);
        if (plugins == null || plugins.isBlank()) {
            throw new IllegalStateException("the S3 read side needs Flink's S3 plugin: no -D" + PLUGINS_DIR_PROPERTY
                    + " (./blob-ingest sets it)");
        }
        Path tmp = Files.createDirectories(scratch);
        Configuration config = new Configuration();
        config.set(S3Options.ENDPOINT, "http://127.0.0.1:" + port);
        config.set(S3Options.PATH_STYLE_ACCESS, true);
        config.set(S3Options.ACCESS_KEY, BenchS3Server.ACCESS_KEY);
        config.set(S3Options.SECRET_KEY, BenchS3Server.SECRET_KEY);
        config.set(S3Options.SSL_ENABLED, false);
        config.set(CoreOptions.TMP_DIRS, tmp.toString());
        config.setString("fs.s3a.connection.maximum", CONNECTIONS);
        FlinkFileSystems.initialize(config, Path.of(plugins));
    }
}
