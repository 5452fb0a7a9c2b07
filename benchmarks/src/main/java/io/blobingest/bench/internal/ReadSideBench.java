package io.blobingest.bench.internal;

import io.blobingest.bench.ReadFigures;
import io.blobingest.bench.internal.ReadSample.Sampled;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.PhysicalRange;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.storage.FlinkFileSystemStorage;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a random sample of the Packed descriptors blob-ingest committed under a base, three ways:
 * through {@code ObjectLayer.readAll} in batches, through it one descriptor at a time, and as raw
 * positional reads of exactly the payload ranges the Object Layer plans (the floor); then in batches
 * again with each of {@link #WIDER_HOLE_LIMITS}. Each way gets
 * one warm-up round, then {@value ReadFigures#TIMED_ROUNDS} timed rounds alternating with the other ways (the
 * median is kept); only the reads are timed, and every blob's crc32c is checked against its
 * descriptor after each chunk it was read in.
 */
final class ReadSideBench {

    /**
     * Hole limits the batch read is repeated with, wider than the Object Layer's default: fewer
     * requests for more bytes read, the trade a store with costly requests (S3) should make.
     */
    static final List<Long> WIDER_HOLE_LIMITS = List.of(64L * 1024, 256L * 1024, 1024L * 1024);

    private final URI base;
    private final int sampleSize;
    private final long seed;

    ReadSideBench(URI base, int sampleSize, long seed) {
        this.base = base;
        this.sampleSize = sampleSize;
        this.seed = seed;
    }

    ReadFigures run() throws IOException {
        ReadSample sample = ReadSample.draw(base, sampleSize, seed);
        List<List<Sampled>> batches = sample.batches();

        CountingBlobStorage storage = new CountingBlobStorage(new FlinkFileSystemStorage());
        List<ObjectLayer> widerLayers = new ArrayList<>();
        try (ObjectLayer layer = ObjectLayer.builder(storage).build();
                RawReader raw = new RawReader()) {
            ReadWay batch =
                    new ReadWay(storage::takeReads, chunk -> layer.readAll(requests(chunk)), ReadFigures.TIMED_ROUNDS);
            List<ReadWay> widerWays = new ArrayList<>();
            for (long holeLimit : WIDER_HOLE_LIMITS) {
                ObjectLayer wider =
                        ObjectLayer.builder(storage).holeLimit(holeLimit).build();
                widerLayers.add(wider);
                widerWays.add(new ReadWay(
                        storage::takeReads, chunk -> wider.readAll(requests(chunk)), ReadFigures.TIMED_ROUNDS));
            }
            ReadWay single = new ReadWay(
                    storage::takeReads,
                    chunk -> {
                        List<byte[]> blobs = new ArrayList<>(chunk.size());
                        for (Sampled s : chunk) {
                            blobs.add(layer.readAll(List.of(s.request(base))).get(0));
                        }
                        return blobs;
                    },
                    ReadFigures.TIMED_ROUNDS);
            ReadWay positional = new ReadWay(
                    raw::takeReads,
                    chunk -> {
                        List<byte[]> blobs = new ArrayList<>(chunk.size());
                        for (Sampled s : chunk) {
                            blobs.add(raw.read(s.range()));
                        }
                        return blobs;
                    },
                    ReadFigures.TIMED_ROUNDS);
            List<ReadWay> ways = new ArrayList<>(List.of(batch, single, positional));
            ways.addAll(widerWays);
            for (ReadWay way : ways) {
                way.round(batches);
            }
            long verified = Long.MAX_VALUE;
            for (int round = 0; round < ReadFigures.TIMED_ROUNDS; round++) {
                for (ReadWay way : ways) {
                    verified = Math.min(verified, way.timedRound(batches, round));
                }
            }
            List<ReadFigures.HoleLimitWay> widerHoles = new ArrayList<>();
            for (int i = 0; i < WIDER_HOLE_LIMITS.size(); i++) {
                widerHoles.add(new ReadFigures.HoleLimitWay(
                        WIDER_HOLE_LIMITS.get(i), widerWays.get(i).median()));
            }
            return new ReadFigures(
                    sample.blobs().size(),
                    sample.packedBlobs(),
                    sample.bytes(),
                    batch.median(),
                    single.median(),
                    positional.median(),
                    verified,
                    widerHoles);
        } finally {
            for (ObjectLayer wider : widerLayers) {
                wider.close();
            }
        }
    }

    private List<BlobRequest> requests(List<Sampled> chunk) {
        return chunk.stream().map(s -> s.request(base)).toList();
    }

    /**
     * Positional channel reads ({@code FileChannel.read(buffer, position)}, through {@link
     * LocalBlobStorage}), one per range; each file is opened once, in the warm-up round.
     */
    private static final class RawReader implements AutoCloseable {
        private final LocalBlobStorage storage = new LocalBlobStorage();
        private final Map<URI, ReadableObject> files = new HashMap<>();
        private long reads;

        byte[] read(PhysicalRange range) throws IOException {
            ReadableObject file = files.get(range.location());
            if (file == null) {
                file = storage.open(range.location());
                files.put(range.location(), file);
            }
            byte[] bytes = new byte[Math.toIntExact(range.length())];
            file.readFully(range.offset(), bytes, 0, bytes.length);
            reads++;
            return bytes;
        }

        long takeReads() {
            long taken = reads;
            reads = 0;
            return taken;
        }

        @Override
        public void close() throws IOException {
            for (ReadableObject file : files.values()) {
                file.close();
            }
        }
    }
}
