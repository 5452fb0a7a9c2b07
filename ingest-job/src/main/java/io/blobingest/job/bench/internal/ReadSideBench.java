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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.flink.core.fs.Path;

/**
 * Reads a random sample of the Packed descriptors blob-ingest committed under a base, three ways:
 * through {@code ObjectLayer.readAll} in batches, through it one descriptor at a time, and as raw
 * positional reads of exactly the payload ranges the Object Layer plans (the floor). Each way gets
 * one warm-up round and {@value #TIMED_ROUNDS} timed ones (the median is kept); only the reads are
 * timed, and every blob's crc32c is checked against its descriptor after each timed batch.
 */
final class ReadSideBench {

    static final int TIMED_ROUNDS = 3;
    /** Logical bytes one {@code readAll} call asks for: the sample of large blobs is bigger than a heap should hold. */
    static final long MAX_BATCH_BYTES = 256L * 1024 * 1024;

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
        try (ObjectLayer layer = ObjectLayer.builder(storage).build()) {
            Verifier verifier = new Verifier(sample.size());
            ReadFigures.Way batch = measure(storage::takeReads, () -> {
                for (List<Sampled> chunk : batches) {
                    long started = System.nanoTime();
                    List<byte[]> blobs = layer.readAll(chunk.stream().map(Sampled::request).toList());
                    long elapsed = System.nanoTime() - started;
                    verifier.check(chunk, blobs);
                    verifier.time(elapsed);
                }
            }, verifier);
            ReadFigures.Way single = measure(storage::takeReads, () -> {
                for (List<Sampled> chunk : batches) {
                    long started = System.nanoTime();
                    List<byte[]> blobs = new ArrayList<>(chunk.size());
                    for (Sampled s : chunk) {
                        blobs.add(layer.readAll(List.of(s.request())).get(0));
                    }
                    long elapsed = System.nanoTime() - started;
                    verifier.check(chunk, blobs);
                    verifier.time(elapsed);
                }
            }, verifier);
            ReadFigures.Way raw;
            try (RawReader reader = new RawReader()) {
                raw = measure(reader::takeReads, () -> {
                    for (List<Sampled> chunk : batches) {
                        long started = System.nanoTime();
                        List<byte[]> blobs = new ArrayList<>(chunk.size());
                        for (Sampled s : chunk) {
                            blobs.add(reader.read(s.range()));
                        }
                        long elapsed = System.nanoTime() - started;
                        verifier.check(chunk, blobs);
                        verifier.time(elapsed);
                    }
                }, verifier);
            }
            return new ReadFigures(sample.size(), packed.size(), bytes, batch, single, raw, verifier.verifiedEveryRound());
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

    /** A fixed-seed random sample, each member with the payload range the Object Layer plans for it. */
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

    /** One warm-up round, then the timed rounds; the median time and the requests of one round. */
    private static ReadFigures.Way measure(RequestCounter requests, Round round, Verifier verifier) throws IOException {
        verifier.startRound();
        round.run();
        requests.takeReads();
        long[] times = new long[TIMED_ROUNDS];
        long roundRequests = -1;
        for (int i = 0; i < TIMED_ROUNDS; i++) {
            verifier.startRound();
            round.run();
            times[i] = verifier.roundNanos();
            long counted = requests.takeReads();
            if (roundRequests >= 0 && counted != roundRequests) {
                throw new IllegalStateException("round " + i + " made " + counted + " requests, the round before "
                        + roundRequests + ": the rounds do not read the same way");
            }
            roundRequests = counted;
        }
        Arrays.sort(times);
        return new ReadFigures.Way(Duration.ofNanos(times[TIMED_ROUNDS / 2]), roundRequests);
    }

    private interface Round {
        void run() throws IOException;
    }

    private interface RequestCounter {
        long takeReads();
    }

    private record PackedRow(BlobRequest request, Long crc32c) {}

    /** A sampled descriptor, the physical range that holds its payload, and its descriptor's crc32c. */
    private record Sampled(BlobRequest request, PhysicalRange range, Long crc32c) {}

    /** Checks every blob read against its descriptor's crc32c; counts the blobs that passed in every round. */
    private static final class Verifier {
        private final int expected;
        private long roundNanos;
        private long verifiedThisRound;
        private long verifiedEveryRound = Long.MAX_VALUE;

        Verifier(int expected) {
            this.expected = expected;
        }

        void startRound() {
            if (roundNanos > 0) {
                verifiedEveryRound = Math.min(verifiedEveryRound, verifiedThisRound);
            }
            roundNanos = 0;
            verifiedThisRound = 0;
        }

        void time(long nanos) {
            roundNanos += nanos;
        }

        long roundNanos() {
            return roundNanos;
        }

        void check(List<Sampled> chunk, List<byte[]> blobs) throws IOException {
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
                verifiedThisRound++;
            }
        }

        long verifiedEveryRound() {
            startRound();
            return verifiedEveryRound == Long.MAX_VALUE ? 0 : Math.min(verifiedEveryRound, expected);
        }
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
