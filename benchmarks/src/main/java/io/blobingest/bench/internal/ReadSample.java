package io.blobingest.bench.internal;

import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobRequest;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.ObjectLayer;
import io.blobingest.objectlayer.PhysicalRange;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import io.blobingest.storage.FlinkFileSystemStorage;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.flink.core.fs.Path;

/**
 * The read sides' sample: Packed descriptors drawn at random (fixed seed) from the manifests
 * blob-ingest committed under a local base, each with the payload range the Object Layer plans for
 * it, in storage order (object, offset), and cut into batches of at most {@link #MAX_BATCH_BYTES}.
 * The same seed draws the same sample for the local and the S3 read side.
 *
 * @param packedBlobs Packed descriptors the sample was drawn from
 */
record ReadSample(List<Sampled> blobs, long packedBlobs) {

    /**
     * Logical bytes one {@code readAll} call asks for at most. The sample is read in storage order
     * (object, offset), so a batch holds neighbours to coalesce however it is cut; the bound keeps
     * the blobs alive at once, and so the garbage collector's copying, the same for every way.
     */
    static final long MAX_BATCH_BYTES = 64L * 1024 * 1024;

    /**
     * A sampled descriptor: its manifest row, the features its blob set requires, the physical
     * range on local disk that holds its payload, and its descriptor's crc32c.
     */
    record Sampled(DescriptorRow row, Set<String> features, PhysicalRange range, Long crc32c) {
        long size() {
            return row.blob().size();
        }

        /** The request for this descriptor with its blob sets under {@code base}. */
        BlobRequest request(URI base) {
            return BlobRequest.forRow(row, base, features);
        }
    }

    private record PackedRow(DescriptorRow row, Set<String> features) {}

    /**
     * @throws IllegalStateException if the base holds no Packed descriptor
     */
    static ReadSample draw(URI base, int size, long seed) throws IOException {
        List<PackedRow> packed = packedRows(base);
        if (packed.isEmpty()) {
            throw new IllegalStateException(
                    "no Packed descriptor under " + base + ": nothing for the read side to read");
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < packed.size(); i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(seed));
        List<Sampled> sample = new ArrayList<>();
        try (ObjectLayer planner =
                ObjectLayer.builder(new FlinkFileSystemStorage()).build()) {
            for (int i : order.subList(0, Math.min(size, order.size()))) {
                PackedRow row = packed.get(i);
                BlobRequest request = BlobRequest.forRow(row.row(), base, row.features());
                PhysicalRange range = planner.plan(planner.resolve(request.descriptor(), request.context()))
                        .range();
                sample.add(
                        new Sampled(row.row(), row.features(), range, row.row().crc32c()));
            }
        }
        sample.sort(Comparator.comparing((Sampled s) -> s.range().location())
                .thenComparingLong(s -> s.range().offset()));
        return new ReadSample(List.copyOf(sample), packed.size());
    }

    long bytes() {
        return blobs.stream().mapToLong(Sampled::size).sum();
    }

    /** The sample in storage order, cut into batches of at most {@link #MAX_BATCH_BYTES} logical bytes. */
    List<List<Sampled>> batches() {
        List<List<Sampled>> batches = new ArrayList<>();
        List<Sampled> current = new ArrayList<>();
        long bytes = 0;
        for (Sampled s : blobs) {
            if (!current.isEmpty() && bytes + s.size() > MAX_BATCH_BYTES) {
                batches.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(s);
            bytes += s.size();
        }
        if (!current.isEmpty()) {
            batches.add(current);
        }
        return batches;
    }

    /** Every Packed row of every manifest under the base. */
    private static List<PackedRow> packedRows(URI base) throws IOException {
        java.nio.file.Path manifests = java.nio.file.Path.of(base).resolve(BlobSets.DESCRIPTORS_DIRECTORY);
        List<java.nio.file.Path> files;
        try (Stream<java.nio.file.Path> listing = Files.list(manifests)) {
            files = listing.filter(file -> file.getFileName().toString().endsWith(BlobSets.MANIFEST_SUFFIX))
                    .sorted()
                    .toList();
        }
        List<PackedRow> rows = new ArrayList<>();
        for (java.nio.file.Path file : files) {
            try (DescriptorManifestReader reader = DescriptorManifestReader.open(new Path(file.toUri()))) {
                Set<String> features = Set.copyOf(reader.requiredFeatures());
                reader.forEachRow(row -> {
                    if (row.blob().kind() == BlobKind.PACKED) {
                        rows.add(new PackedRow(row, features));
                    }
                });
            }
        }
        return rows;
    }

    /** @return how many blobs matched their descriptor's size and crc32c */
    static long verify(List<Sampled> chunk, List<byte[]> blobs) throws IOException {
        for (int i = 0; i < chunk.size(); i++) {
            Sampled s = chunk.get(i);
            byte[] blob = blobs.get(i);
            CRC32C crc = new CRC32C();
            crc.update(blob);
            if (blob.length != s.size() || crc.getValue() != s.crc32c()) {
                throw new IOException(
                        s.range().location() + " offset " + s.range().offset() + ": read "
                                + blob.length + " bytes with crc32c " + crc.getValue() + ", the descriptor says "
                                + s.size() + " bytes with crc32c " + s.crc32c());
            }
        }
        return chunk.size();
    }
}
