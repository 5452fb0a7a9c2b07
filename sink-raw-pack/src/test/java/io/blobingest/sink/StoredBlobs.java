package io.blobingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.objectlayer.pack.RawPackFooter;
import io.blobingest.objectlayer.pack.RawPackFormat;
import io.blobingest.objectlayer.pack.RawPackReader;
import io.blobingest.objectlayer.storage.LocalBlobStorage;
import io.blobingest.objectlayer.storage.ReadableObject;
import io.blobingest.sink.internal.delivery.DeliveryMarkers;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads back what the sink left on a local base directory, the way a reader would: committed
 * manifests, then each descriptor resolved through its sidecar.
 */
public final class StoredBlobs {

    private final Path base;
    private final LocalBlobStorage storage = new LocalBlobStorage();
    private final RawPackReader packReader = RawPackReader.withAllFeatures();
    private final Map<Path, RawPackFooter> footers = new HashMap<>();

    public StoredBlobs(Path base) {
        this.base = base;
    }

    /** Every committed manifest's rows, keyed by blob set. */
    public Map<String, List<DescriptorRow>> committedManifests() throws IOException {
        Map<String, List<DescriptorRow>> sets = new HashMap<>();
        Path descriptors = base.resolve(BlobSets.DESCRIPTORS_DIRECTORY);
        if (!Files.isDirectory(descriptors)) {
            return sets;
        }
        for (Path manifest : visibleFiles(descriptors)) {
            try (DescriptorManifestReader reader =
                    DescriptorManifestReader.open(new org.apache.flink.core.fs.Path(manifest.toUri()))) {
                String name = manifest.getFileName().toString();
                assertThat(name).isEqualTo(reader.blobSet() + BlobSets.MANIFEST_SUFFIX);
                sets.put(reader.blobSet(), reader.readAll());
            }
        }
        return sets;
    }

    /** The logical bytes a committed descriptor names, checked against its crc32c. */
    public byte[] resolve(DescriptorRow row) throws IOException {
        return switch (row.blob().kind()) {
            case INLINE -> row.inlineData();
            case EXTERNAL -> throw new IllegalArgumentException("External " + row.source() + " is not stored here");
            case DEDICATED -> {
                byte[] bytes = Files.readAllBytes(sidecar(row));
                assertThat((long) bytes.length)
                        .as("dedicated sidecar length of " + row.source())
                        .isEqualTo(row.blob().size());
                yield bytes;
            }
            case PACKED -> {
                Path pack = sidecar(row);
                RawPackFooter footer = footer(pack);
                int entry = Math.toIntExact(RawPackFormat.entryIndex(row.blob().position()));
                assertThat(footer.entryLength(entry))
                        .as("entry length of " + row.source())
                        .isEqualTo(row.blob().size());
                byte[] bytes = new byte[Math.toIntExact(footer.entryLength(entry))];
                try (ReadableObject object = storage.open(pack.toUri())) {
                    object.readFully(footer.entryOffset(entry), bytes, 0, bytes.length);
                }
                RawPackReader.verifyPayload(footer, entry, bytes, 0, bytes.length);
                yield bytes;
            }
        };
    }

    /** Reads and validates the footer of every committed pack of {@code blobSet}, and each payload's crc. */
    public void verifyPacks(String blobSet, List<DescriptorRow> rows) throws IOException {
        Set<Long> packIds = rows.stream()
                .filter(r -> r.blob().kind() == BlobKind.PACKED && blobSet.equals(r.blobSet()))
                .map(r -> r.blob().blobId())
                .collect(Collectors.toSet());
        for (long id : packIds) {
            Path pack = base.resolve(blobSet).resolve(BlobSets.sidecarFileName(id));
            RawPackFooter footer = footer(pack);
            assertThat(footer.blobSet()).isEqualTo(blobSet);
            assertThat(footer.blobId()).isEqualTo(id);
            byte[] header = new byte[RawPackFormat.HEADER_LENGTH];
            try (ReadableObject object = storage.open(pack.toUri())) {
                object.readFully(0, header, 0, header.length);
                packReader.verifyHeader(pack.toString(), header);
                for (int i = 0; i < footer.entryCount(); i++) {
                    byte[] payload = new byte[Math.toIntExact(footer.entryLength(i))];
                    object.readFully(footer.entryOffset(i), payload, 0, payload.length);
                    RawPackReader.verifyPayload(footer, i, payload, 0, payload.length);
                }
            }
        }
    }

    /** Files whose names do not start with a dot, under {@code dir}, recursively. */
    public static List<Path> visibleFiles(Path dir) {
        return files(dir).stream()
                .filter(p -> !p.getFileName().toString().startsWith("."))
                .toList();
    }

    /** In-progress leftovers: dot-prefixed files, under {@code dir}, recursively. */
    public static List<Path> hiddenFiles(Path dir) {
        return files(dir).stream()
                .filter(p -> p.getFileName().toString().startsWith("."))
                .toList();
    }

    /**
     * Checks the storage invariants: every visible file is a committed manifest or a sidecar of a
     * blob set whose manifest is committed and whose rows name it; hidden files are in-progress
     * leftovers only.
     */
    public void assertOnlyCommittedFilesAreVisible(Map<String, List<DescriptorRow>> manifests) {
        Set<Path> expected = new HashSet<>();
        manifests.forEach((set, rows) -> {
            expected.add(base.resolve(BlobSets.DESCRIPTORS_DIRECTORY).resolve(set + BlobSets.MANIFEST_SUFFIX));
            for (DescriptorRow row : rows) {
                if (row.blob().kind() == BlobKind.PACKED || row.blob().kind() == BlobKind.DEDICATED) {
                    expected.add(sidecar(row));
                }
            }
        });
        Path markers = base.resolve(DeliveryMarkers.DIRECTORY);
        assertThat(visibleFiles(base).stream().filter(p -> !p.startsWith(markers)))
                .as("visible files under " + base + " beside the delivery markers")
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(hiddenFiles(base))
                .as("hidden leftovers")
                .allSatisfy(p -> assertThat(p.getFileName().toString()).contains(".inprogress."));
    }

    private Path sidecar(DescriptorRow row) {
        return base.resolve(row.blobSet())
                .resolve(BlobSets.sidecarFileName(row.blob().blobId()));
    }

    private RawPackFooter footer(Path pack) throws IOException {
        RawPackFooter cached = footers.get(pack);
        if (cached == null) {
            try (ReadableObject object = storage.open(pack.toUri())) {
                cached = packReader.readFooter(object);
            }
            footers.put(pack, cached);
        }
        return cached;
    }

    private static List<Path> files(Path dir) {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).collect(Collectors.toCollection(ArrayList::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
