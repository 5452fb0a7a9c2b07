package io.blobingest.job.bench.internal;

import io.blobingest.job.bench.ReadFigures;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.PhysicalRange;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import io.blobingest.storage.FlinkFileSystemStorage;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.flink.core.fs.Path;

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
     * Logical bytes one {@code readAll} call asks for at most. The sample is read in storage order
     * (object, offset), so a batch holds neighbours to coalesce however it is cut; the bound keeps
     * the blobs alive at once, and so the garbage collector's copying, the same for every way.
     */
    static final long MAX_BATCH_BYTES = 64L * 1024 * 1024;

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
        List<PackedRow> packed = packedRows();
        if (packed.isEmpty()) {
            throw new IllegalStateException("no Packed descriptor under " + base + ": nothing for the read side to read");
        }
        List<Sampled> sample = sample(packed);
        List<List<Sampled>> batches = batches(sample);
        long bytes = sample.stream().mapToLong(s -> s.request().descriptor().size()).sum();

        CountingBlobStorage storage = new CountingBlobStorage(new FlinkFileSystemStorage());
        List<ObjectLayer> widerLayers = new ArrayList<>();
        try (ObjectLayer layer = ObjectLayer.builder(storage).build(); RawReader raw = new RawReader()) {
            ReadWay batch = new ReadWay(storage::takeReads,
                    chunk -> layer.readAll(chunk.stream().map(Sampled::request).toList()));
            List<ReadWay> widerWays = new ArrayList<>();
            for (long holeLimit : WIDER_HOLE_LIMITS) {
                ObjectLayer wider = ObjectLayer.builder(storage).holeLimit(holeLimit).build();
                widerLayers.add(wider);
                widerWays.add(new ReadWay(storage::takeReads,
                        chunk -> wider.readAll(chunk.stream().map(Sampled::request).toList())));
            }
            ReadWay single = new ReadWay(storage::takeReads, chunk -> {
                List<byte[]> blobs = new ArrayList<>(chunk.size());
                for (Sampled s : chunk) {
                    blobs.add(layer.readAll(List.of(s.request())).get(0));
                }
                return blobs;
            });
            ReadWay positional = new ReadWay(raw::takeReads, chunk -> {
                List<byte[]> blobs = new ArrayList<>(chunk.size());
                for (Sampled s : chunk) {
                    blobs.add(raw.read(s.range()));
                }
                return blobs;
            });
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
                widerHoles.add(new ReadFigures.HoleLimitWay(WIDER_HOLE_LIMITS.get(i), widerWays.get(i).median()));
            }
            return new ReadFigures(sample.size(), packed.size(), bytes, batch.median(), single.median(),
                    positional.median(), verified, widerHoles);
        } finally {
            for (ObjectLayer wider : widerLayers) {
                wider.close();
            }
        }
    }

    /** Every Packed row of every manifest under the base, as a request. */
    private List<PackedRow> packedRows() throws IOException {
        java.nio.file.Path manifests = java.nio.file.Path.of(base).resolve(BlobSets.DESCRIPTORS_DIRECTORY);
        List<java.nio.file.Path> files;
        try (Stream<java.nio.file.Path> listing = Files.list(manifests)) {
            files = listing.filter(file -> file.getFileName().toString().endsWith(BlobSets.MANIFEST_SUFFIX)).sorted().toList();
        }
        List<PackedRow> rows = new ArrayList<>();
        for (java.nio.file.Path file : files) {
            try (DescriptorManifestReader reader = DescriptorManifestReader.open(new Path(file.toUri()))) {
                Set<String> features = Set.copyOf(reader.requiredFeatures());
                reader.forEachRow(row -> {
                    if (row.blob().kind() == BlobKind.PACKED) {
                        rows.add(new PackedRow(BlobRequest.forRow(row, base, features), row.crc32c()));
                    }
                });
            }
        }
        return rows;
    }

    /**
     * A fixed-seed random sample, each member with the payload range the Object Layer plans for it,
     * in storage order.
     */
    private List<Sampled> sample(List<PackedRow> packed) throws IOException {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < packed.size(); i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(seed));
        List<Sampled> sample = new ArrayList<>();
        try (ObjectLayer planner = ObjectLayer.builder(new FlinkFileSystemStorage()).build()) {
            for (int i : order.subList(0, Math.min(sampleSize, order.size()))) {
                BlobRequest request = packed.get(i).request();
                PhysicalRange range = planner.plan(planner.resolve(request.descriptor(), request.context())).range();
                sample.add(new Sampled(request, range, packed.get(i).crc32c()));
            }
        }
        sample.sort(Comparator.comparing((Sampled s) -> s.range().location()).thenComparingLong(s -> s.range().offset()));
        return sample;
    }

    private static List<List<Sampled>> batches(List<Sampled> sample) {
        List<List<Sampled>> batches = new ArrayList<>();
        List<Sampled> current = new ArrayList<>();
        long bytes = 0;
        for (Sampled s : sample) {
            if (!current.isEmpty() && bytes + s.request().descriptor().size() > MAX_BATCH_BYTES) {
                batches.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(s);
            bytes += s.request().descriptor().size();
        }
        if (!current.isEmpty()) {
            batches.add(current);
        }
        return batches;
    }

    /** Reads a chunk of the sample one way, returning the blobs in the chunk's order. */
    private interface ChunkReader {
        List<byte[]> read(List<Sampled> chunk) throws IOException;
    }

    /**
     * One way of reading, measured in rounds that alternate with the other ways, so that a change in
     * the machine's load falls on every way alike. Only the reads are timed; each blob read is
     * checked against its descriptor's crc32c after its chunk.
     */
    private static final class ReadWay {
        private final LongSupplier requests;
        private final ChunkReader reader;
        private final long[] times = new long[ReadFigures.TIMED_ROUNDS];
        private long roundRequests = -1;
        private long verifiedInRound;

        ReadWay(LongSupplier requests, ChunkReader reader) {
            this.requests = requests;
            this.reader = reader;
        }

        /** @return the time spent reading; the blobs verified are counted */
        long round(List<List<Sampled>> chunks) throws IOException {
            long nanos = 0;
            verifiedInRound = 0;
            for (List<Sampled> chunk : chunks) {
                long started = System.nanoTime();
                List<byte[]> blobs = reader.read(chunk);
                nanos += System.nanoTime() - started;
                verifiedInRound += verify(chunk, blobs);
            }
            return nanos;
        }

        /** @return the blobs verified in this round */
        long timedRound(List<List<Sampled>> chunks, int round) throws IOException {
            requests.getAsLong();
            times[round] = round(chunks);
            long counted = requests.getAsLong();
            if (roundRequests >= 0 && counted != roundRequests) {
                throw new IllegalStateException("round " + round + " made " + counted + " I/O requests, the round before "
                        + roundRequests + ": the rounds do not read the same way");
            }
            roundRequests = counted;
            return verifiedInRound;
        }

        ReadFigures.Way median() {
            long[] sorted = times.clone();
            Arrays.sort(sorted);
            return new ReadFigures.Way(Duration.ofNanos(sorted[ReadFigures.TIMED_ROUNDS / 2]), roundRequests);
        }
    }

    /** @return how many blobs matched their descriptor's size and crc32c */
    private static long verify(List<Sampled> chunk, List<byte[]> blobs) throws IOException {
        for (int i = 0; i < chunk.size(); i++) {
            Sampled s = chunk.get(i);
            byte[] blob = blobs.get(i);
            CRC32C crc = new CRC32C();
            crc.update(blob);
            if (blob.length != s.request().descriptor().size() || crc.getValue() != s.crc32c()) {
                throw new IOException(s.range().location() + " offset " + s.range().offset() + ": read "
                        + blob.length + " bytes with crc32c " + crc.getValue() + ", the descriptor says "
                        + s.request().descriptor().size() + " bytes with crc32c " + s.crc32c());
            }
        }
        return chunk.size();
    }

    private record PackedRow(BlobRequest request, Long crc32c) {}

    /** A sampled descriptor, the physical range that holds its payload, and its descriptor's crc32c. */
    private record Sampled(BlobRequest request, PhysicalRange range, Long crc32c) {}

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
