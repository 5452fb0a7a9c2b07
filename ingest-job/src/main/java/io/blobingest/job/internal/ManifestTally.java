package io.blobingest.job.internal;

import io.blobingest.job.RunSummary;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import java.io.IOException;
import java.net.URI;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.Path;

/**
 * The totals of a run's manifests (see {@link RunSummary}): rows per kind, the run's packs and
 * Dedicated sidecars with their sizes on storage, and the rows that name an object stored for
 * another row or by an earlier run (exact sharing).
 */
@Internal
public final class ManifestTally {

    private final URI base;
    /** The blob sets whose manifests are counted: this run's. */
    private final Set<String> runSets = new HashSet<>();

    private final Map<BlobKind, RunSummary.KindTotals> kinds = new EnumMap<>(BlobKind.class);
    private final Set<Sidecar> packs = new HashSet<>();
    private final Set<Sidecar> dedicatedSidecars = new HashSet<>();
    private final Set<StoredObject> objectsNamed = new HashSet<>();
    private int blobSets;
    private long packBytes;
    private long dedicatedBytes;
    private long sharedBlobs;
    private long sharedBytes;

    private ManifestTally(URI base, List<Path> manifests) {
        this.base = base;
        for (Path manifest : manifests) {
            String name = manifest.getName();
            runSets.add(name.substring(0, name.length() - BlobSets.MANIFEST_SUFFIX.length()));
        }
        for (BlobKind kind : BlobKind.values()) {
            kinds.put(kind, new RunSummary.KindTotals(0, 0));
        }
    }

    private void add(Path manifest) throws IOException {
        try (DescriptorManifestReader reader = DescriptorManifestReader.open(manifest)) {
            blobSets++;
            for (DescriptorRow row : reader.readAll()) {
                add(row);
            }
        }
    }

    private void add(DescriptorRow row) throws IOException {
        BlobKind kind = row.blob().kind();
        RunSummary.KindTotals totals = kinds.get(kind);
        kinds.put(
                kind,
                new RunSummary.KindTotals(
                        totals.blobs() + 1, totals.bytes() + row.blob().size()));
        if (kind != BlobKind.PACKED && kind != BlobKind.DEDICATED) {
            return;
        }
        Sidecar sidecar = new Sidecar(row.blobSet(), row.blob().blobId());
        boolean storedByThisRun = runSets.contains(row.blobSet());
        // A Dedicated sidecar holds one object: its position says nothing more.
        long position = kind == BlobKind.PACKED ? row.blob().position() : 0;
        if (!objectsNamed.add(new StoredObject(sidecar, position)) || !storedByThisRun) {
            sharedBlobs++;
            sharedBytes += row.blob().size();
        }
        if (!storedByThisRun) {
            return;
        }
        if (kind == BlobKind.PACKED && packs.add(sidecar)) {
            packBytes += sidecar.length(base);
        } else if (kind == BlobKind.DEDICATED && dedicatedSidecars.add(sidecar)) {
            dedicatedBytes += sidecar.length(base);
        }
    }

    /**
     * What the manifests hold.
     *
     * @param kinds rows and logical bytes per kind; every kind is present
     * @param packs distinct Raw Packs of the run's blob sets named by Packed rows
     * @param packBytes their total size on storage
     * @param dedicatedSidecars Dedicated sidecars of the run's blob sets named by Dedicated rows
     * @param dedicatedBytes their total size on storage
     * @param sharedBlobs Packed and Dedicated rows that name an object stored for another row or by
     *     an earlier run
     * @param sharedBytes their logical bytes
     */
    public record Totals(
            Map<BlobKind, RunSummary.KindTotals> kinds,
            int blobSets,
            int packs,
            long packBytes,
            int dedicatedSidecars,
            long dedicatedBytes,
            long sharedBlobs,
            long sharedBytes) {

        public Totals {
            kinds = Collections.unmodifiableMap(new EnumMap<>(kinds));
        }
    }

    /** Reads {@code manifests}, the run's, whose sidecars lie under {@code base}. */
    public static Totals of(URI base, List<Path> manifests) throws IOException {
        ManifestTally tally = new ManifestTally(base, manifests);
        for (Path manifest : manifests) {
            tally.add(manifest);
        }
        return new Totals(
                tally.kinds,
                tally.blobSets,
                tally.packs.size(),
                tally.packBytes,
                tally.dedicatedSidecars.size(),
                tally.dedicatedBytes,
                tally.sharedBlobs,
                tally.sharedBytes);
    }

    /** One stored blob: a sidecar and, in a pack, the position of its entry. */
    private record StoredObject(Sidecar sidecar, long position) {}

    private record Sidecar(String blobSet, long id) {
        long length(URI base) throws IOException {
            Path path = new Path(BlobSets.sidecarUri(base, blobSet, id));
            return path.getFileSystem().getFileStatus(path).getLen();
        }
    }
}
