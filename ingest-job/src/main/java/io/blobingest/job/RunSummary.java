package io.blobingest.job;

import io.blobingest.job.internal.CountDeadLetters;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.objectlayer.BlobSets;
import io.blobingest.objectlayer.DescriptorRow;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.sink.RawPackSink;
import io.blobingest.sink.RawPackSinkOptions;
import io.blobingest.sink.manifest.DescriptorManifestReader;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.fs.Path;

/**
 * What one run committed, read back from storage: the rows of the manifests the run committed
 * (see {@link RunBaseline}) counted per kind, the Raw Packs and Dedicated sidecars they name with
 * their sizes on storage, and the rates over the run's time. Dead letters are counted by the job
 * itself (they have no manifest).
 *
 * <p>Bytes are logical blob bytes: an External reference counts the length of its range (0 for a
 * whole object) and is not part of the bytes placed. Pack sizes are file sizes on storage, header
 * and footer included; the fill ratio compares the average pack with {@code
 * sink.raw-pack.pack-target-size}.
 *
 * <p>With exact sharing ({@code sink.raw-pack.exact-sharing}) a Packed or Dedicated row may name
 * an object another row stored. Such a row is <em>shared</em> when the object it names (blob set,
 * sidecar and, for Packed, position) was named by a row counted before it, or lies in a blob set
 * this run did not commit (an earlier run stored it); its size is saved bytes. Shared rows count in
 * their kind like any other, but the packs and sidecars of earlier runs' sets are not this run's.
 * The size of the writers' sharing indexes comes from the job too (an accumulator, see {@link
 * SharingIndex}).
 */
@PublicEvolving
public final class RunSummary {

    private static final double MIB = 1024.0 * 1024.0;

    /** Blobs of one kind and their logical bytes. */
    public record KindTotals(long blobs, long bytes) {}

    /**
     * Exact sharing's index at the end of a run: the objects the writer subtasks remembered, each
     * as of the last blob set it committed (the job accumulator {@link
     * RawPackSink#SHARING_INDEX_ENTRIES_ACCUMULATOR}), summed, and the most one subtask remembers.
     *
     * @param entries objects remembered by all writer subtasks together
     * @param perSubtaskLimit {@code sink.raw-pack.exact-sharing.index-size}
     */
    public record SharingIndex(long entries, int perSubtaskLimit) {}

    private final Map<BlobKind, KindTotals> kinds;
    private final int blobSets;
    private final int packs;
    private final long packBytes;
    private final int dedicatedSidecars;
    private final long dedicatedBytes;
    private final long sharedBlobs;
    private final long sharedBytes;
    private final long packTargetBytes;
    private final Duration elapsed;
    private final Map<DeadLetterCode, Long> deadLetters;
    /** Null: sharing off, or not known (no job result). */
    private final SharingIndex sharingIndex;

    private RunSummary(
            Tally tally,
            long packTargetBytes,
            Duration elapsed,
            Map<DeadLetterCode, Long> deadLetters,
            SharingIndex sharingIndex) {
        this.kinds = Collections.unmodifiableMap(new EnumMap<>(tally.kinds));
        this.blobSets = tally.blobSets;
        this.packs = tally.packs.size();
        this.packBytes = tally.packBytes;
        this.dedicatedSidecars = tally.dedicatedSidecars.size();
        this.dedicatedBytes = tally.dedicatedBytes;
        this.sharedBlobs = tally.sharedBlobs;
        this.sharedBytes = tally.sharedBytes;
        this.packTargetBytes = packTargetBytes;
        this.elapsed = elapsed;
        // EnumMap's copy constructor refuses an empty map that is not an EnumMap.
        this.deadLetters = Collections.unmodifiableMap(
                deadLetters.isEmpty() ? new EnumMap<>(DeadLetterCode.class) : new EnumMap<>(deadLetters));
        this.sharingIndex = sharingIndex;
    }

    /**
     * The summary of a finished job: its manifests since {@code baseline}, its net runtime, its
     * dead-letter and sharing index accumulators, and the pack target size and sharing index size of
     * {@code config}.
     */
    public static RunSummary of(RunBaseline baseline, JobExecutionResult result, ReadableConfig config)
            throws IOException {
        Map<String, Object> accumulators = result.getAllAccumulatorResults();
        // Present exactly when the sink ran with exact sharing.
        SharingIndex sharingIndex =
                accumulators.get(RawPackSink.SHARING_INDEX_ENTRIES_ACCUMULATOR) instanceof Long entries
                        ? new SharingIndex(entries, config.get(RawPackSinkOptions.EXACT_SHARING_INDEX_SIZE))
                        : null;
        return of(
                baseline,
                Duration.ofMillis(result.getNetRuntime()),
                config.get(RawPackSinkOptions.PACK_TARGET_SIZE).getBytes(),
                CountDeadLetters.countsByCode(accumulators),
                sharingIndex);
    }

    /**
     * A summary without the sharing index, for a job that has not finished (it has no accumulator
     * results yet) or that runs without exact sharing.
     *
     * @see #of(RunBaseline, Duration, long, Map, SharingIndex)
     */
    public static RunSummary of(
            RunBaseline baseline, Duration elapsed, long packTargetBytes, Map<DeadLetterCode, Long> deadLetters)
            throws IOException {
        return of(baseline, elapsed, packTargetBytes, deadLetters, null);
    }

    /**
     * @param elapsed the run's duration, for the rates
     * @param packTargetBytes {@code sink.raw-pack.pack-target-size}, for the fill ratio
     * @param deadLetters dead letters per code (codes without any may be absent)
     * @param sharingIndex exact sharing's index at the end of the run; null when sharing was off or
     *     the size is not known
     * @throws IOException if a manifest cannot be read or a sidecar it names is missing
     */
    public static RunSummary of(
            RunBaseline baseline,
            Duration elapsed,
            long packTargetBytes,
            Map<DeadLetterCode, Long> deadLetters,
            SharingIndex sharingIndex)
            throws IOException {
        Objects.requireNonNull(elapsed, "elapsed");
        if (packTargetBytes <= 0) {
            throw new IllegalArgumentException("pack target size must be > 0 bytes, found " + packTargetBytes);
        }
        List<Path> manifests = baseline.newManifests();
        Tally tally = new Tally(baseline.base(), manifests);
        for (Path manifest : manifests) {
            tally.add(manifest);
        }
        return new RunSummary(tally, packTargetBytes, elapsed, deadLetters, sharingIndex);
    }

    /** Blobs and logical bytes per kind; every kind is present. */
    public Map<BlobKind, KindTotals> kinds() {
        return kinds;
    }

    /** Descriptors committed: one per placed input record. */
    public long descriptors() {
        return kinds.values().stream().mapToLong(KindTotals::blobs).sum();
    }

    /**
     * Logical bytes placed by this run: Inline, Packed and Dedicated blobs, shared ones included
     * ({@link #sharedBytes} of them were not stored again).
     */
    public long bytesPlaced() {
        return kinds.get(BlobKind.INLINE).bytes()
                + kinds.get(BlobKind.PACKED).bytes()
                + kinds.get(BlobKind.DEDICATED).bytes();
    }

    public int blobSets() {
        return blobSets;
    }

    /** Distinct Raw Packs of this run's blob sets named by Packed descriptors. */
    public int packs() {
        return packs;
    }

    /** Their total size on storage. */
    public long packBytes() {
        return packBytes;
    }

    public long averagePackBytes() {
        return packs == 0 ? 0 : packBytes / packs;
    }

    /** Average pack size over the pack target size; 0 without packs. */
    public double packFillRatio() {
        return packs == 0 ? 0 : (double) packBytes / packs / packTargetBytes;
    }

    /** Dedicated sidecars of this run's blob sets named by Dedicated descriptors. */
    public int dedicatedSidecars() {
        return dedicatedSidecars;
    }

    /** Total size of the Dedicated sidecars on storage. */
    public long dedicatedBytes() {
        return dedicatedBytes;
    }

    /** Packed and Dedicated descriptors that name an object stored for another descriptor (exact sharing). */
    public long sharedBlobs() {
        return sharedBlobs;
    }

    /** Their logical bytes: what exact sharing did not store again. */
    public long sharedBytes() {
        return sharedBytes;
    }

    /** Exact sharing's index at the end of the run; empty when sharing was off or the size is not known. */
    public Optional<SharingIndex> sharingIndex() {
        return Optional.ofNullable(sharingIndex);
    }

    public Duration elapsed() {
        return elapsed;
    }

    /** Descriptors per second of elapsed time; 0 if no time elapsed. */
    public double blobsPerSecond() {
        return perSecond(descriptors());
    }

    /** MiB of {@link #bytesPlaced} per second of elapsed time; 0 if no time elapsed. */
    public double mebibytesPerSecond() {
        return perSecond(bytesPlaced()) / MIB;
    }

    /** Dead letters per code, only the codes that occurred. */
    public Map<DeadLetterCode, Long> deadLetters() {
        return deadLetters;
    }

    public long deadLetterTotal() {
        return deadLetters.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * The summary as the {@code run} command prints it, one fact per line; the {@code shared} line
     * only when a descriptor was shared, the {@code sharing index} line whenever its size is known
     * (sharing was on), even if nothing was shared.
     */
    public String format() {
        StringBuilder text = new StringBuilder();
        line(text, "run summary: %d descriptors in %d blob sets, %s", descriptors(), blobSets, seconds(elapsed));
        line(text, "  inline     %,10d blobs %10s", blobs(BlobKind.INLINE), size(bytes(BlobKind.INLINE)));
        line(
                text,
                "  packed     %,10d blobs %10s in %d packs, average %s, %.1f%% of the %s target",
                blobs(BlobKind.PACKED),
                size(bytes(BlobKind.PACKED)),
                packs,
                size(averagePackBytes()),
                100 * packFillRatio(),
                size(packTargetBytes));
        line(
                text,
                "  dedicated  %,10d blobs %10s in %d sidecars",
                blobs(BlobKind.DEDICATED),
                size(bytes(BlobKind.DEDICATED)),
                dedicatedSidecars);
        if (sharedBlobs > 0) {
            line(
                    text,
                    "  shared     %,10d blobs %10s not stored again (exact sharing)",
                    sharedBlobs,
                    size(sharedBytes));
        }
        if (sharingIndex != null) {
            line(
                    text,
                    "  sharing index %,d objects remembered (at most %,d per subtask)",
                    sharingIndex.entries(),
                    sharingIndex.perSubtaskLimit());
        }
        line(text, "  external   %,10d references", blobs(BlobKind.EXTERNAL));
        line(text, "  dead letters %d%s", deadLetterTotal(), deadLetterCodes());
        line(text, "  throughput %.1f blobs/s, %.2f MiB/s", blobsPerSecond(), mebibytesPerSecond());
        return text.toString();
    }

    @Override
    public String toString() {
        return format();
    }

    private long blobs(BlobKind kind) {
        return kinds.get(kind).blobs();
    }

    private long bytes(BlobKind kind) {
        return kinds.get(kind).bytes();
    }

    private String deadLetterCodes() {
        if (deadLetters.isEmpty()) {
            return "";
        }
        StringJoiner codes = new StringJoiner(", ", ": ", "");
        deadLetters.forEach((code, count) -> codes.add(code.wireName() + " " + count));
        return codes.toString();
    }

    private double perSecond(long amount) {
        long nanos = elapsed.toNanos();
        return nanos <= 0 ? 0 : amount * 1e9 / nanos;
    }

    private static void line(StringBuilder text, String format, Object... args) {
        text.append(String.format(Locale.ROOT, format, args)).append(System.lineSeparator());
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }

    /** Binary units, one decimal: {@code 512 B}, {@code 64.0 KiB}, {@code 1.0 GiB}. */
    static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    /** Running totals over the rows of several manifests. */
    private static final class Tally {
        private final URI base;
        /** The blob sets whose manifests are counted: this run's. */
        private final Set<String> runSets = new HashSet<>();

        private final Map<BlobKind, KindTotals> kinds = new EnumMap<>(BlobKind.class);
        private final Set<Sidecar> packs = new HashSet<>();
        private final Set<Sidecar> dedicatedSidecars = new HashSet<>();
        private final Set<StoredObject> objectsNamed = new HashSet<>();
        private int blobSets;
        private long packBytes;
        private long dedicatedBytes;
        private long sharedBlobs;
        private long sharedBytes;

        Tally(URI base, List<Path> manifests) {
            this.base = base;
            for (Path manifest : manifests) {
                String name = manifest.getName();
                runSets.add(name.substring(0, name.length() - BlobSets.MANIFEST_SUFFIX.length()));
            }
            for (BlobKind kind : BlobKind.values()) {
                kinds.put(kind, new KindTotals(0, 0));
            }
        }

        void add(Path manifest) throws IOException {
            try (DescriptorManifestReader reader = DescriptorManifestReader.open(manifest)) {
                blobSets++;
                for (DescriptorRow row : reader.readAll()) {
                    add(row);
                }
            }
        }

        private void add(DescriptorRow row) throws IOException {
            BlobKind kind = row.blob().kind();
            KindTotals totals = kinds.get(kind);
            kinds.put(
                    kind,
                    new KindTotals(
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
