package io.blobingest.job;

import io.blobingest.job.internal.CountDeadLetters;
import io.blobingest.job.internal.ManifestTally;
import io.blobingest.job.internal.RunSummaryText;
import io.blobingest.objectlayer.BlobKind;
import io.blobingest.placement.DeadLetterCode;
import io.blobingest.sink.RawPackSink;
import io.blobingest.sink.RawPackSinkOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.ReadableConfig;

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

    private final ManifestTally.Totals totals;
    private final long packTargetBytes;
    private final Duration elapsed;
    private final Map<DeadLetterCode, Long> deadLetters;
    /** Null: sharing off, or not known (no job result). */
    private final SharingIndex sharingIndex;

    private RunSummary(
            ManifestTally.Totals totals,
            long packTargetBytes,
            Duration elapsed,
            Map<DeadLetterCode, Long> deadLetters,
            SharingIndex sharingIndex) {
        this.totals = totals;
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
        return new RunSummary(
                ManifestTally.of(baseline.base(), baseline.newManifests()),
                packTargetBytes,
                elapsed,
                deadLetters,
                sharingIndex);
    }

    /** Blobs and logical bytes per kind; every kind is present. */
    public Map<BlobKind, KindTotals> kinds() {
        return totals.kinds();
    }

    /** Descriptors committed: one per placed input record. */
    public long descriptors() {
        return totals.kinds().values().stream().mapToLong(KindTotals::blobs).sum();
    }

    /**
     * Logical bytes placed by this run: Inline, Packed and Dedicated blobs, shared ones included
     * ({@link #sharedBytes} of them were not stored again).
     */
    public long bytesPlaced() {
        return totals.kinds().get(BlobKind.INLINE).bytes()
                + totals.kinds().get(BlobKind.PACKED).bytes()
                + totals.kinds().get(BlobKind.DEDICATED).bytes();
    }

    public int blobSets() {
        return totals.blobSets();
    }

    /** Distinct Raw Packs of this run's blob sets named by Packed descriptors. */
    public int packs() {
        return totals.packs();
    }

    /** Their total size on storage. */
    public long packBytes() {
        return totals.packBytes();
    }

    public long averagePackBytes() {
        return packs() == 0 ? 0 : packBytes() / packs();
    }

    /** Average pack size over the pack target size; 0 without packs. */
    public double packFillRatio() {
        return packs() == 0 ? 0 : (double) packBytes() / packs() / packTargetBytes;
    }

    /** Dedicated sidecars of this run's blob sets named by Dedicated descriptors. */
    public int dedicatedSidecars() {
        return totals.dedicatedSidecars();
    }

    /** Total size of the Dedicated sidecars on storage. */
    public long dedicatedBytes() {
        return totals.dedicatedBytes();
    }

    /** Packed and Dedicated descriptors that name an object stored for another descriptor (exact sharing). */
    public long sharedBlobs() {
        return totals.sharedBlobs();
    }

    /** Their logical bytes: what exact sharing did not store again. */
    public long sharedBytes() {
        return totals.sharedBytes();
    }

    /** Exact sharing's index at the end of the run; empty when sharing was off or the size is not known. */
    public Optional<SharingIndex> sharingIndex() {
        return Optional.ofNullable(sharingIndex);
    }

    /** {@code sink.raw-pack.pack-target-size}: what the fill ratio compares with. */
    public long packTargetBytes() {
        return packTargetBytes;
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
        return RunSummaryText.format(this);
    }

    @Override
    public String toString() {
        return format();
    }

    private double perSecond(long amount) {
        long nanos = elapsed.toNanos();
        return nanos <= 0 ? 0 : amount * 1e9 / nanos;
    }
}
