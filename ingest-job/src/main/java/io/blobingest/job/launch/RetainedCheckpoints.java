package io.blobingest.job.launch;

import io.blobingest.storage.DirectoryListing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.RecoveryClaimMode;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Finds the newest complete checkpoint Flink retained under a checkpoint directory, on any Flink
 * file system: {@code <dir>/<job id>/chk-<n>/_metadata}. A checkpoint without {@code _metadata} was
 * never completed and is ignored.
 *
 * <p>Every job on a Flink cluster shares the directory, so a start resumes only the checkpoints of
 * its own lineage (the Kafka transactional id prefix, {@code BlobKafkaConnectors.lineage}): before
 * a job is submitted, {@link #recordLineage} writes the lineage into {@code <dir>/<job
 * id>/}{@value #LINEAGE_RECORD}, and {@link #select} considers only job directories whose record
 * names the start's lineage. Another lineage's checkpoints hold another job's source offsets,
 * committables and transactions: restored, they would deliver its inputs into this job's topic,
 * fence its transactions and, claimed, delete the checkpoint it needs. A job directory without a
 * record (a job started by a release that wrote none, or by plain {@code flink run} of another
 * program) may be anyone's: when its newest checkpoint is newer than the start's own, {@link
 * #select} refuses rather than guess.
 */
@PublicEvolving
public final class RetainedCheckpoints {

    /** The file in {@code <dir>/<job id>/} that names the job's lineage, in UTF-8. */
    public static final String LINEAGE_RECORD = "blob-ingest.lineage";

    private static final String METADATA = "_metadata";
    private static final String CHECKPOINT_PREFIX = "chk-";

    /** Newer: modified later, or as late with a higher number. */
    private static final Comparator<Completed> NEWEST =
            Comparator.comparingLong(Completed::modified).thenComparingLong(Completed::number);

    private RetainedCheckpoints() {}

    /**
     * The newest completed checkpoint's directory, of any job and lineage; empty when there is none
     * or the directory is missing. For looking at the directory; a start uses {@link #select}.
     */
    public static Optional<URI> latest(URI checkpointDirectory) {
        return completed(checkpointDirectory, null).stream().max(NEWEST).map(Completed::directory);
    }

    /**
     * What a start of {@code lineage} resumes: the newest completed checkpoint among the job
     * directories recorded under that lineage, unless a job directory without a record has a newer
     * one. Checkpoints of other lineages are left out.
     *
     * @param base the start's {@code sink.raw-pack.base-path}; null: not known, not compared
     * @throws UnrecordedCheckpointException when the newest candidate is in a job directory without
     *     a lineage record, saying in one line what to do
     * @throws ChangedSettingException when the newest checkpoint of the lineage was written with
     *     another base, or when the lineage has none but another lineage's checkpoint wrote into
     *     this base (a changed group id or transactional id prefix), saying in one line what to do
     */
    public static Selection select(URI checkpointDirectory, String lineage, String base) {
        base = base == null ? null : baseKey(base);
        List<Completed> own = new ArrayList<>();
        List<Completed> unrecorded = new ArrayList<>();
        List<Completed> othersOnThisBase = new ArrayList<>();
        Set<String> otherLineages = new TreeSet<>();
        for (Completed checkpoint : completed(checkpointDirectory, null)) {
            Optional<JobRecord> recorded = checkpoint.record();
            if (recorded.isEmpty()) {
                unrecorded.add(checkpoint);
            } else if (recorded.get().lineage().equals(lineage)) {
                own.add(checkpoint);
            } else {
                otherLineages.add(recorded.get().lineage());
                if (base != null && recorded.get().base().filter(base::equals).isPresent()) {
                    othersOnThisBase.add(checkpoint);
                }
            }
        }
        Optional<Completed> newestOwn = own.stream().max(NEWEST);
        Optional<Completed> newestUnrecorded = unrecorded.stream().max(NEWEST);
        if (newestUnrecorded.isPresent()
                && (newestOwn.isEmpty() || NEWEST.compare(newestUnrecorded.get(), newestOwn.get()) > 0)) {
            URI checkpoint = newestUnrecorded.get().directory();
            throw new UnrecordedCheckpointException("the newest checkpoint under " + checkpointDirectory + ", "
                    + checkpoint + ", has no lineage record (" + LINEAGE_RECORD + " in its job's directory;"
                    + " jobs of earlier releases wrote none), so it may be another job's: if it is this job's"
                    + " (lineage '" + lineage + "'), resume it with -D " + StateRecoveryOptions.SAVEPOINT_PATH.key()
                    + "="
                    + checkpoint + " -D " + StateRecoveryOptions.RESTORE_MODE.key() + "=" + RecoveryClaimMode.CLAIM
                    + " (the job takes it over: Flink deletes it once a newer checkpoint completes, so later starts"
                    + " no longer find it), otherwise move it away or start with --fresh");
        }
        if (newestOwn.isPresent()) {
            Optional<String> ownBase = newestOwn.get().record().flatMap(JobRecord::base);
            if (base != null && ownBase.isPresent() && !ownBase.get().equals(base)) {
                throw new ChangedSettingException("the newest checkpoint of this job (lineage '" + lineage + "'), "
                        + newestOwn.get().directory() + ", was written with the base " + ownBase.get()
                        + ", not this start's " + base + ": its open blob sets and delivery records are there."
                        + " Resume it with --base " + ownBase.get() + ", or start afresh in the new base with"
                        + " --fresh (the descriptors that checkpoint had not delivered are then never delivered)");
            }
        } else {
            Optional<Completed> other = othersOnThisBase.stream().max(NEWEST);
            if (other.isPresent()) {
                String otherLineage = other.get().record().orElseThrow().lineage();
                throw new ChangedSettingException("no checkpoint of this job's lineage '" + lineage + "' under "
                        + checkpointDirectory + ", but " + other.get().directory() + " wrote into the same base "
                        + base + " under the lineage '" + otherLineage + "': a changed kafka.group-id or"
                        + " kafka.transactional-id-prefix starts a new lineage, which resumes nothing and places"
                        + " again what that one read. Resume it with --group-id " + otherLineage
                        + " (or -D kafka.transactional-id-prefix=" + otherLineage + "), or start the new lineage"
                        + " with --fresh");
            }
        }
        return new Selection(newestOwn.map(Completed::directory), otherLineages);
    }

    /**
     * Records that the job {@code jobId} is of {@code lineage}, in {@code <dir>/<job id>/}{@value
     * #LINEAGE_RECORD}, before the job is submitted and so before Flink writes any checkpoint of it
     * there. A record already there (a job id given by the user or the cluster, started again) must
     * name the same lineage.
     *
     * @throws IllegalStateException when the job's directory is recorded under another lineage
     */
    public static void recordLineage(
            URI checkpointDirectory, String jobId, String lineage, String base, Duration openWindow) {
        Path record = new Path(new Path(new Path(checkpointDirectory), jobId), LINEAGE_RECORD);
        try {
            FileSystem fileSystem = record.getFileSystem();
            Optional<JobRecord> recorded = readRecord(fileSystem, record.getParent());
            if (recorded.isPresent()) {
                if (!recorded.get().lineage().equals(lineage)) {
                    throw new IllegalStateException("the checkpoints of job " + jobId + " under " + checkpointDirectory
                            + " are recorded under the lineage '"
                            + recorded.get().lineage() + "', not this job's '"
                            + lineage + "': give this job another job id");
                }
                return;
            }
            try (FSDataOutputStream out = fileSystem.create(record, FileSystem.WriteMode.NO_OVERWRITE)) {
                out.write(new JobRecord(lineage, Optional.of(baseKey(base)), Optional.of(openWindow))
                        .text()
                        .getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the lineage record " + record, e);
        }
    }

    /** {@code sink.raw-pack.base-path} as recorded and compared: absolute, normalized, no trailing slash. */
    static String baseKey(String base) {
        URI uri = new Path(base).toUri().normalize();
        String scheme = uri.getScheme();
        String authority = uri.getAuthority();
        String path = uri.getPath();
        if (scheme == null) {
            scheme = "file";
            authority = null;
            path = java.nio.file.Path.of(path).toAbsolutePath().normalize().toString();
        }
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return scheme + ":" + (authority == null || authority.isEmpty() ? "" : "//" + authority) + path;
    }

    /** What is recorded in a job's checkpoint directory, if anything. */
    private static Optional<JobRecord> readRecord(FileSystem fileSystem, Path jobDirectory) throws IOException {
        Path record = new Path(jobDirectory, LINEAGE_RECORD);
        if (!fileSystem.exists(record)) {
            return Optional.empty();
        }
        try (FSDataInputStream in = fileSystem.open(record)) {
            return Optional.of(JobRecord.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        }
    }

    /**
     * The content of {@value #LINEAGE_RECORD}: the lineage on the first line, then {@code
     * base=<uri>}, the job's {@code sink.raw-pack.base-path}, and {@code open-window=<duration>}:
     * how long before one of its checkpoints the oldest in-progress file or upload that checkpoint
     * may still need was started ({@link #openWindow}).
     */
    record JobRecord(String lineage, Optional<String> base, Optional<Duration> openWindow) {

        private static final String BASE = "base=";
        private static final String OPEN_WINDOW = "open-window=";

        String text() {
            return lineage + "\n" + base.map(b -> BASE + b + "\n").orElse("")
                    + openWindow.map(w -> OPEN_WINDOW + w + "\n").orElse("");
        }

        static JobRecord parse(String text) {
            String[] lines = text.split("\n");
            Optional<String> base = Optional.empty();
            Optional<Duration> openWindow = Optional.empty();
            for (int i = 1; i < lines.length; i++) {
                if (lines[i].startsWith(BASE)) {
                    base = Optional.of(baseKey(lines[i].substring(BASE.length())));
                } else if (lines[i].startsWith(OPEN_WINDOW)) {
                    openWindow = Optional.of(Duration.parse(lines[i].substring(OPEN_WINDOW.length())));
                }
            }
            return new JobRecord(lines.length == 0 ? "" : lines[0], base, openWindow);
        }
    }

    /**
     * How long before a checkpoint the oldest file it may still need was started: a blob set's
     * files are all started while it is open, and a set stays open at most the roll interval
     * ({@code size-or-time}) plus the checkpoint that seals it, which may take up to the checkpoint
     * timeout after it was triggered an interval later.
     */
    public static Duration openWindow(Duration rollInterval, Duration checkpointInterval, Duration checkpointTimeout) {
        return rollInterval.plus(checkpointInterval).plus(checkpointTimeout);
    }

    /**
     * A retained checkpoint that may still need in-progress files and uploads of a base: those
     * started in the {@code window} before it was taken ({@code at}); every earlier one when the
     * window is not known (a checkpoint without a record, which may be any job's).
     */
    public record Protection(URI checkpoint, Instant at, Optional<Duration> window) {

        /** Whether something started at {@code since} (unknown: empty) may be needed by this checkpoint. */
        public boolean mayNeed(Optional<Instant> since) {
            if (since.isEmpty()) {
                return true;
            }
            return !since.get().isAfter(at)
                    && window.map(w -> !since.get().isBefore(at.minus(w))).orElse(true);
        }
    }

    /**
     * A savepoint that may be resumed: it may need whatever was started before it was taken (its
     * job and settings are not recorded beside it).
     *
     * @throws IllegalStateException if it has no {@code _metadata}: no completed savepoint
     */
    public static Protection savepoint(URI savepoint) {
        Path metadata = new Path(new Path(savepoint), METADATA);
        try {
            return new Protection(
                    savepoint,
                    Instant.ofEpochMilli(
                            metadata.getFileSystem().getFileStatus(metadata).getModificationTime()),
                    Optional.empty());
        } catch (IOException e) {
            throw new IllegalStateException("no completed savepoint at " + savepoint + ": cannot read " + metadata, e);
        }
    }

    /**
     * The completed checkpoints under {@code checkpointDirectory} that may still need files of
     * {@code base}: those whose record names the base, and those without a record.
     */
    public static List<Protection> protecting(URI checkpointDirectory, String base) {
        String key = baseKey(base);
        List<Protection> protections = new ArrayList<>();
        for (Completed checkpoint : completed(checkpointDirectory, null)) {
            Optional<JobRecord> record = checkpoint.record();
            if (record.isEmpty()) {
                protections.add(new Protection(
                        checkpoint.directory(), Instant.ofEpochMilli(checkpoint.modified()), Optional.empty()));
            } else if (record.get().base().map(key::equals).orElse(true)) {
                protections.add(new Protection(
                        checkpoint.directory(),
                        Instant.ofEpochMilli(checkpoint.modified()),
                        record.get().openWindow()));
            }
        }
        return protections;
    }

    /** A start that would resume with a setting changed under its checkpoints: refused, in one line. */
    public static final class ChangedSettingException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        ChangedSettingException(String message) {
            super(message);
        }
    }

    /**
     * What {@link #select} found.
     *
     * @param latest the newest completed checkpoint of the lineage, if any
     * @param otherLineages the lineages of the other jobs' completed checkpoints, left out
     */
    public record Selection(Optional<URI> latest, Set<String> otherLineages) {}

    /** The newest candidate checkpoint has no lineage record: a start refuses it, in one line. */
    public static final class UnrecordedCheckpointException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        UnrecordedCheckpointException(String message) {
            super(message);
        }
    }

    /**
     * Requires that Flink has discarded the completed checkpoints of the finished job {@code jobId}
     * under {@code checkpointDirectory}, and the one it resumed from and claimed, if any. Flink
     * discards a finished job's checkpoints while its JobMaster shuts down, and only logs a deletion
     * that failed; a checkpoint left behind would be the next start's.
     *
     * @throws IllegalStateException naming the checkpoints still there
     */
    public static void requireDiscarded(URI checkpointDirectory, String jobId, Optional<URI> claimed) {
        List<URI> left = new ArrayList<>();
        completed(checkpointDirectory, jobId).forEach(c -> left.add(c.directory()));
        claimed.filter(RetainedCheckpoints::isCompleted)
                .filter(c -> !left.contains(c))
                .ifPresent(left::add);
        if (!left.isEmpty()) {
            throw new IllegalStateException("Flink shut down without discarding the checkpoints of the finished job "
                    + jobId + " (its log says why): " + left + " still there; the next start would resume from a"
                    + " checkpoint whose sources have finished: delete them, or start with --fresh");
        }
    }

    private static boolean isCompleted(URI checkpoint) {
        Path metadata = new Path(new Path(checkpoint), METADATA);
        try {
            return metadata.getFileSystem().exists(metadata);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot look for " + metadata, e);
        }
    }

    /** The completed checkpoints under the directory, of every job or (jobId not null) of one. */
    private static List<Completed> completed(URI checkpointDirectory, String jobId) {
        Path directory = new Path(checkpointDirectory);
        try {
            FileSystem fileSystem = directory.getFileSystem();
            List<Completed> completed = new ArrayList<>();
            for (FileStatus job : directories(directory)) {
                if (jobId != null && !job.getPath().getName().equals(jobId)) {
                    continue;
                }
                Optional<JobRecord> record = null;
                for (FileStatus checkpoint : directories(job.getPath())) {
                    String name = checkpoint.getPath().getName();
                    Path metadata = new Path(checkpoint.getPath(), METADATA);
                    if (name.startsWith(CHECKPOINT_PREFIX) && fileSystem.exists(metadata)) {
                        if (record == null) {
                            record = readRecord(fileSystem, job.getPath());
                        }
                        completed.add(new Completed(
                                checkpoint.getPath().toUri(),
                                fileSystem.getFileStatus(metadata).getModificationTime(),
                                number(name),
                                record));
                    }
                }
            }
            return completed;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list checkpoints under " + checkpointDirectory, e);
        }
    }

    private static List<FileStatus> directories(Path directory) throws IOException {
        List<FileStatus> directories = new ArrayList<>();
        for (FileStatus status : DirectoryListing.list(directory)) {
            if (status.isDir()) {
                directories.add(status);
            }
        }
        return directories;
    }

    private static long number(String checkpointName) {
        try {
            return Long.parseLong(checkpointName.substring(CHECKPOINT_PREFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private record Completed(URI directory, long modified, long number, Optional<JobRecord> record) {}
}
