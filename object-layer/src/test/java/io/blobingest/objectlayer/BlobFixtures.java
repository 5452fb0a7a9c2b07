package io.blobingest.objectlayer;

import io.blobingest.objectlayer.pack.RawPackMetadata;
import io.blobingest.objectlayer.pack.RawPackWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

/** Writes blob sets under a temporary base directory the way the pipeline lays them out. */
final class BlobFixtures {

    private final URI base;

    BlobFixtures(Path root) {
        this.base = root.toUri();
    }

    URI base() {
        return base;
    }

    /** A blob set that declares {@code blob_object_pack}, as every set this pipeline writes. */
    ResolveContext objectPackSet(String blobSet) {
        return ResolveContext.forBlobSet(base, blobSet, Set.of(BlobFeatures.BLOB_OBJECT_PACK));
    }

    /** A blob set written before object-backed packs: it requires no feature. */
    ResolveContext legacySet(String blobSet) {
        return ResolveContext.forBlobSet(base, blobSet, Set.of());
    }

    URI sidecar(String blobSet, long sidecarId) {
        return BlobSets.sidecarUri(base, blobSet, sidecarId);
    }

    Path sidecarPath(String blobSet, long sidecarId) {
        return Path.of(sidecar(blobSet, sidecarId));
    }

    /** Writes a Raw Pack v1 as sidecar {@code sidecarId}; returns its entries' descriptors, in order. */
    List<BlobDescriptor> writePack(String blobSet, long sidecarId, List<byte[]> payloads) throws IOException {
        return writePack(blobSet, sidecarId, payloads, false);
    }

    /** {@link #writePack(String, long, List)}, its footer recording entry hashes if {@code recordEntrySha256}. */
    List<BlobDescriptor> writePack(String blobSet, long sidecarId, List<byte[]> payloads, boolean recordEntrySha256)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RawPackWriter writer =
                RawPackWriter.create(out, new RawPackMetadata(blobSet, sidecarId, "blob-fixtures"), recordEntrySha256);
        List<BlobDescriptor> descriptors = new ArrayList<>();
        for (byte[] payload : payloads) {
            descriptors.add(BlobDescriptor.packed(writer.append(payload), payload.length, sidecarId));
        }
        writer.finish();
        write(blobSet, sidecarId, out.toByteArray());
        return descriptors;
    }

    BlobDescriptor writeDedicated(String blobSet, long sidecarId, byte[] bytes) throws IOException {
        write(blobSet, sidecarId, bytes);
        return BlobDescriptor.dedicated(bytes.length, sidecarId);
    }

    /** A legacy raw Packed sidecar: payloads back to back from offset 0, no header, no footer. */
    List<BlobDescriptor> writeLegacyPacked(String blobSet, long sidecarId, List<byte[]> payloads) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<BlobDescriptor> descriptors = new ArrayList<>();
        for (byte[] payload : payloads) {
            descriptors.add(new BlobDescriptor(BlobKind.PACKED, out.size(), payload.length, sidecarId, ""));
            out.write(payload);
        }
        write(blobSet, sidecarId, out.toByteArray());
        return descriptors;
    }

    void write(String blobSet, long sidecarId, byte[] bytes) throws IOException {
        Path path = sidecarPath(blobSet, sidecarId);
        Files.createDirectories(path.getParent());
        try (OutputStream out = Files.newOutputStream(path)) {
            out.write(bytes);
        }
    }

    static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** {@code count} distinct payloads of {@code length} bytes each. */
    static List<byte[]> payloads(int count, int length) {
        List<byte[]> payloads = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            payloads.add(randomBytes(length, i));
        }
        return payloads;
    }
}
