package io.blobingest.sink.internal;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalLong;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;

/**
 * Empty files that record how far a job's descriptors are delivered, one per emitter subtask:
 * {@code <base>/_delivered/<lineage>/<epoch>-<subtask>} says that the descriptor epoch {@code
 * epoch} of that subtask is committed downstream. A subtask writes its marker when it learns that
 * one of its epochs is committed and then deletes its previous one, so the directory holds about
 * one file per subtask.
 *
 * <p>What they are for: a job restored from checkpoint {@code c} has delivered nothing beyond epoch
 * {@code c} if {@code c} is its latest checkpoint (epoch {@code c + 1} commits only with checkpoint
 * {@code c + 1}). A marker above {@code c} therefore proves the restore is from an older
 * checkpoint, or a second time from one savepoint, which would deliver again what was delivered
 * after it. The lineage is the descriptor sink's name for the job (the Kafka transactional id
 * prefix: the same across a job's restores, unique between jobs), so jobs sharing a base do not
 * see each other's markers.
 */
public final class DeliveryMarkers {

    /** Beside the blob set directories and {@code _descriptors}, never a valid blob set name. */
    public static final String DIRECTORY = "_delivered";

    private final Path directory;
    private Path lastWritten;

    public DeliveryMarkers(Path base, String lineage) {
        this.directory = new Path(new Path(base, DIRECTORY), directoryName(lineage));
    }

    /** Records that {@code subtask}'s epoch {@code epoch} is delivered, and forgets its previous one. */
    public void delivered(int subtask, long epoch) throws IOException {
        Path marker = new Path(directory, epoch + "-" + subtask);
        FileSystem fs = marker.getFileSystem();
        if (!fs.exists(marker)) {
            fs.create(marker, WriteMode.OVERWRITE).close();
        }
        if (lastWritten == null) {
            // The first marker of this attempt: the previous attempts' markers of this subtask go.
            String suffix = "-" + subtask;
            for (FileStatus status : list()) {
                Path old = status.getPath();
                if (old.getName().endsWith(suffix) && epochOf(old) < epoch) {
                    fs.delete(old, false);
                }
            }
        } else if (!lastWritten.equals(marker)) {
            fs.delete(lastWritten, false);
        }
        lastWritten = marker;
    }

    /** The highest epoch any subtask of this lineage has recorded, if any. */
    public OptionalLong latestDelivered() throws IOException {
        long latest = -1;
        for (FileStatus status : list()) {
            latest = Math.max(latest, epochOf(status.getPath()));
        }
        return latest < 0 ? OptionalLong.empty() : OptionalLong.of(latest);
    }

    /**
     * Deletes every marker: after an accepted restore from an older checkpoint, the epochs the
     * abandoned run delivered beyond it must not make the next restore of this run look older.
     */
    public void forgetAll() throws IOException {
        for (FileStatus status : list()) {
            status.getPath().getFileSystem().delete(status.getPath(), false);
        }
    }

    /** Where the markers are, for messages. */
    public Path directory() {
        return directory;
    }

    /** The markers: files only, the delivery check keeps directories of its own here. */
    private List<FileStatus> list() throws IOException {
        FileSystem fs = directory.getFileSystem();
        FileStatus[] statuses;
        try {
            statuses = fs.listStatus(directory);
        } catch (FileNotFoundException e) {
            return List.of();
        }
        if (statuses == null) {
            return List.of();
        }
        return Arrays.stream(statuses).filter(status -> !status.isDir()).toList();
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
