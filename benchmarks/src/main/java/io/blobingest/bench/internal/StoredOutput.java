package io.blobingest.bench.internal;

import io.blobingest.bench.StoredFigures;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** Measures what a blob-ingest run left under its local base ({@link StoredFigures}). */
final class StoredOutput {

    /** The object a Packed or Dedicated descriptor names: equal for rows that share it. */
    private record StoredObject(String blobSet, long blobId, long position) {}

    private StoredOutput() {}

    static StoredFigures measure(Path base) throws IOException {
        Path manifests = base.resolve(BlobSets.DESCRIPTORS_DIRECTORY);
        long sidecarBytes = 0;
        long sidecars = 0;
        List<Path> manifestFiles;
        try (Stream<Path> files = Files.walk(base)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                if (!file.startsWith(manifests) && file.getFileName().toString().endsWith(BlobSets.SIDECAR_SUFFIX)) {
                    sidecarBytes += Files.size(file);
                    sidecars++;
                }
            }
        }
        try (Stream<Path> files = Files.list(manifests)) {
            manifestFiles = files.filter(file -> file.getFileName().toString().endsWith(BlobSets.MANIFEST_SUFFIX))
                    .sorted()
                    .toList();
        }
        Set<StoredObject> named = new HashSet<>();
        long storedRows = 0;
        long sharedRows = 0;
        for (Path file : manifestFiles) {
            try (DescriptorManifestReader reader =
                    DescriptorManifestReader.open(new org.apache.flink.core.fs.Path(file.toUri()))) {
                for (DescriptorRow row : reader.readAll()) {
                    BlobKind kind = row.blob().kind();
                    if (kind == BlobKind.PACKED || kind == BlobKind.DEDICATED) {
                        storedRows++;
                        if (!named.add(new StoredObject(
                                row.blobSet(), row.blob().blobId(), row.blob().position()))) {
                            sharedRows++;
                        }
                    }
                }
            }
        }
        return new StoredFigures(sidecarBytes, sidecars, storedRows, sharedRows);
    }
}
