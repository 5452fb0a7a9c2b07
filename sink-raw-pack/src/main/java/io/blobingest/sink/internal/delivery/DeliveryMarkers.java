package io.blobingest.sink.internal.delivery;

import io.blobingest.storage.DirectoryListing;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Empty files that record how far one run of a job has delivered its descriptors, one per emitter
 * subtask: {@code <base>/_delivered/<lineage>/<run>/<epoch>-<subtask>} says that the descriptor
 * epoch {@code epoch} of that subtask is committed downstream. A subtask writes its marker when it
 * learns that one of its epochs is committed and then deletes its previous one, so a run's
 * directory holds about one file per subtask.
 *
 * <p>What they are for: a job restored from checkpoint {@code c} has delivered nothing beyond epoch
 * {@code c} if {@code c} is its latest checkpoint (epoch {@code c + 1} commits only with checkpoint
 * {@code c + 1}). A marker of the same run above {@code c} therefore proves the restore is from an
 * older checkpoint, or a second time from one savepoint, which would deliver again what was
 * delivered after it. The lineage is the descriptor sink's name for the job (the Kafka
 * transactional id prefix: the same across a job's restores and starts, unique between jobs), so
 * jobs sharing a base do not see each other's markers.
 *
 * <p>The run is the chain of restores from one start without restored state ({@link #newRunId}):
 * its checkpoint ids, and so its epochs, begin at 1 again, so only its own markers say anything
 * about its restores. A run's first marker deletes the markers of every other run of the lineage.
 * Run ids sort by the time they were drawn, and a restore that finds the markers of a run drawn
 * later is a restore of an earlier run's state. State written before runs had ids has none ({@code run} null):
 * its markers stay directly under the lineage's directory, as they always were, and count as the
 * earliest run.
 */
@Internal
public final class DeliveryMarkers {

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryMarkers.class);

    /** Beside the blob set directories and {@code _descriptors}, never a valid blob set name. */
    public static final String DIRECTORY = "_delivered";

    /** {@code run-<13-digit milliseconds since 1970>-<8 hex digits>}: sorts as it was drawn. */
    private static final Pattern RUN_ID = Pattern.compile("run-\\d{13}-[0-9a-f]{8}");

    /** The milliseconds of the last run id drawn in this JVM. */
    private static final AtomicLong LAST_DRAWN = new AtomicLong();

    private final Path lineageDirectory;
    private final String run;
    private final Path directory;
    private Path lastWritten;

    /** @param run this run's id ({@link #newRunId}), null for state from before run ids: the lineage's own directory */
    public DeliveryMarkers(Path base, String lineage, String run) {
        if (run != null && !isRunId(run)) {
            throw new IllegalArgumentException("not a delivery run id: " + run);
        }
        this.lineageDirectory = new Path(new Path(base, DIRECTORY), directoryName(lineage));
        this.run = run;
        this.directory = run == null ? lineageDirectory : new Path(lineageDirectory, run);
    }

    /**
     * A new run's id, drawn when a job is built: later draws sort after earlier ones, in one JVM
     * always, between JVMs as far as their clocks agree.
     */
    public static String newRunId() {
        long millis = LAST_DRAWN.updateAndGet(last -> Math.max(System.currentTimeMillis(), last + 1));
        return String.format(
                "run-%013d-%08x", millis, ThreadLocalRandom.current().nextInt());
    }

    public static boolean isRunId(String name) {
        return RUN_ID.matcher(name).matches();
    }

    /**
     * Records that {@code subtask}'s epoch {@code epoch} is delivered, and forgets its previous one;
     * the first marker of an attempt also forgets the markers of the lineage's other runs.
     */
    public void delivered(int subtask, long epoch) throws IOException {
        Path marker = new Path(directory, epoch + "-" + subtask);
        FileSystem fs = marker.getFileSystem();
        if (!fs.exists(marker)) {
            fs.create(marker, WriteMode.OVERWRITE).close();
        }
        if (lastWritten == null) {
            // The first marker of this attempt: the previous attempts' markers of this subtask go.
            String suffix = "-" + subtask;
            for (FileStatus status : markers(directory)) {
                Path old = status.getPath();
                if (old.getName().endsWith(suffix) && epochOf(old) < epoch) {
                    fs.delete(old, false);
                }
            }
            forgetOtherRuns();
        } else if (!lastWritten.equals(marker)) {
            fs.delete(lastWritten, false);
        }
        lastWritten = marker;
    }

    /** The highest epoch any subtask of this run has recorded, if any. */
    public OptionalLong latestDelivered() throws IOException {
        long latest = -1;
        for (FileStatus status : markers(directory)) {
            latest = Math.max(latest, epochOf(status.getPath()));
        }
        return latest < 0 ? OptionalLong.empty() : OptionalLong.of(latest);
    }

    /** The latest run of this lineage that started after this one and has recorded a delivery, if any. */
    public Optional<String> laterRun() throws IOException {
        Optional<String> latest = Optional.empty();
        for (FileStatus status : runs()) {
            String name = status.getPath().getName();
            if (isLater(name) && !markers(status.getPath()).isEmpty()) {
                latest = latest.filter(other -> other.compareTo(name) > 0).or(() -> Optional.of(name));
            }
        }
        return latest;
    }

    /**
     * Deletes every marker of this run and of the runs after it: after an accepted restore from an
     * older checkpoint, the epochs the abandoned run delivered beyond it must not make the next
     * restore of this run look older, nor a later run this one look superseded.
     */
    public void forgetAll() throws IOException {
        if (run == null) {
            for (FileStatus status : markers(directory)) {
                status.getPath().getFileSystem().delete(status.getPath(), false);
            }
        } else {
            directory.getFileSystem().delete(directory, true);
        }
        for (FileStatus status : runs()) {
            if (isLater(status.getPath().getName())) {
                status.getPath().getFileSystem().delete(status.getPath(), true);
            }
        }
    }

    /** The lineage's directory, kept across its runs: for messages and the delivery check's own records. */
    public Path lineageDirectory() {
        return lineageDirectory;
    }

    /** Where this run's markers are, for messages. */
    public Path directory() {
        return directory;
    }

    /** This run's id; null for state from before run ids. */
    public String run() {
        return run;
    }

    /**
     * The other runs' markers go once this run has delivered: it is the lineage's current run (one
     * job per lineage at a time), and they can tell its restores nothing. All of them, not only
     * those whose ids sort before this one: a run drawn on a host whose clock is behind still
     * forgets its predecessor.
     */
    private void forgetOtherRuns() {
        if (run == null) {
            return;
        }
        try {
            FileSystem fs = lineageDirectory.getFileSystem();
            for (FileStatus status : markers(lineageDirectory)) {
                fs.delete(status.getPath(), false);
            }
            for (FileStatus status : runs()) {
                if (!status.getPath().getName().equals(run)) {
                    fs.delete(status.getPath(), true);
                }
            }
        } catch (IOException e) {
            // Every subtask tries, and they are ignored anyway: one left behind costs a few files.
            LOG.warn("Could not delete the delivery markers of other runs under {}", lineageDirectory, e);
        }
    }

    private boolean isLater(String otherRun) {
        return run == null || otherRun.compareTo(run) > 0;
    }

    /** The lineage's run directories. */
    private List<FileStatus> runs() throws IOException {
        return DirectoryListing.list(lineageDirectory).stream()
                .filter(FileStatus::isDir)
                .filter(status -> isRunId(status.getPath().getName()))
                .toList();
    }

    /** The markers in {@code dir}: files only, the delivery check and the runs keep directories here. */
    private static List<FileStatus> markers(Path dir) throws IOException {
        return DirectoryListing.list(dir).stream()
                .filter(status -> !status.isDir())
                .toList();
    }

    private static long epochOf(Path marker) throws IOException {
        String name = marker.getName();
        int dash = name.indexOf('-');
        try {
            return Long.parseLong(dash < 0 ? name : name.substring(0, dash));
        } catch (NumberFormatException e) {
            throw new IOException(marker + " is not a delivery marker <epoch>-<subtask>", e);
        }
    }

    /** The lineage, readable where it is a safe path segment, made unique by a hash of it. */
    private static String directoryName(String lineage) {
        String readable = lineage.replaceAll("[^A-Za-z0-9._-]", "_");
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(lineage.getBytes(StandardCharsets.UTF_8));
            return readable + "-" + HexFormat.of().formatHex(hash, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
