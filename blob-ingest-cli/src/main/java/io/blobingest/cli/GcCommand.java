package io.blobingest.cli;

import io.blobingest.cli.gc.Leftover;
import io.blobingest.cli.gc.Leftovers;
import io.blobingest.job.launch.Locations;
import io.blobingest.job.launch.RetainedCheckpoints;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.flink.util.TimeUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code gc}: what failed attempts left under a base. Lists by default; {@code --delete} removes
 * what is older than the grace period. Never touches anything a committed manifest names.
 */
@Command(
        name = "gc",
        mixinStandardHelpOptions = true,
        description = "List (or with --delete remove) leftovers of failed attempts under a base: in-progress"
                + " files (local disk), _tmp_ objects and multipart uploads in progress (S3).")
final class GcCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--base", required = true, description = "Storage root, a directory or URI (s3://bucket/prefix).")
    String base;

    @Option(names = "--delete", description = "Remove leftovers older than the grace period (abort uploads).")
    boolean delete;

    @Option(
            names = "--grace",
            defaultValue = "1h",
            description = "Leave anything younger alone: a running job may"
                    + " still commit it. Longer than the roll interval plus a checkpoint (default: ${DEFAULT-VALUE}).")
    String grace;

    @Option(
            names = "--checkpoint-dir",
            paramLabel = "DIR",
            description = "A checkpoint directory of the jobs writing this base (repeatable): what their retained"
                    + " checkpoints may still need is kept. --delete needs it, or --no-checkpoints.")
    List<String> checkpointDirectories = new ArrayList<>();

    @Option(
            names = "--savepoint",
            paramLabel = "PATH",
            description = "A savepoint that may still be resumed (repeatable): what it may need is kept.")
    List<String> savepoints = new ArrayList<>();

    @Option(
            names = "--no-checkpoints",
            description = "With --delete: no checkpoint or savepoint of a job writing this base will be resumed.")
    boolean noCheckpoints;

    @Mixin
    StorageOptions storageOptions;

    @Override
    public Integer call() throws IOException {
        Duration gracePeriod = gracePeriod();
        if (delete && checkpointDirectories.isEmpty() && savepoints.isEmpty() && !noCheckpoints) {
            throw new ParameterException(
                    spec.commandLine(),
                    "gc --delete must know what a resumable checkpoint may still need (a running job's open set, a"
                            + " savepoint): give the jobs' --checkpoint-dir and any --savepoint to keep, or"
                            + " --no-checkpoints if none of a job writing " + base + " will be resumed");
        }
        if (noCheckpoints && !(checkpointDirectories.isEmpty() && savepoints.isEmpty())) {
            throw new ParameterException(
                    spec.commandLine(), "--no-checkpoints and --checkpoint-dir or --savepoint exclude each other");
        }
        if (!Locations.isLocal(base) || checkpointDirectories.stream().anyMatch(dir -> !Locations.isLocal(dir))) {
            storageOptions.initializeFileSystems();
        }
        List<RetainedCheckpoints.Protection> protections = protections();
        try (Leftovers leftovers = Leftovers.under(Locations.toUri(base), storageOptions.configuration())) {
            report(leftovers, gracePeriod, protections, spec.commandLine().getOut());
        }
        return BlobIngestCli.EXIT_OK;
    }

    /**
     * What the given checkpoints and savepoints may still need. A retained checkpoint of a job
     * writing this base needs what its open sets started within its recorded window; one without
     * a record, and a savepoint, whatever was started before it.
     */
    private List<RetainedCheckpoints.Protection> protections() {
        List<RetainedCheckpoints.Protection> protections = new ArrayList<>();
        for (String directory : checkpointDirectories) {
            protections.addAll(RetainedCheckpoints.protecting(
                    Locations.toUri(directory), Locations.toUri(base).toString()));
        }
        for (String savepoint : savepoints) {
            protections.add(RetainedCheckpoints.savepoint(Locations.toUri(savepoint)));
        }
        return protections;
    }

    private void report(
            Leftovers leftovers,
            Duration gracePeriod,
            List<RetainedCheckpoints.Protection> protections,
            PrintWriter out)
            throws IOException {
        List<Leftover> found = leftovers.find();
        // Ages count from after the listing: a store may stamp what it lists with its own clock.
        Instant now = Instant.now();
        int old = 0;
        int removed = 0;
        int committed = 0;
        int needed = 0;
        for (Leftover leftover : found) {
            String action;
            boolean atCommittedKey = leftovers.namedByCommittedManifest(leftover);
            Optional<RetainedCheckpoints.Protection> neededBy = protections.stream()
                    .filter(protection -> protection.mayNeed(leftover.since()))
                    .findFirst();
            if (atCommittedKey && leftover.kind() != Leftover.Kind.MULTIPART_UPLOAD) {
                committed++;
                action = "kept: a committed manifest names it";
            } else if (!leftover.olderThan(gracePeriod, now)) {
                action = "kept: younger than " + grace;
            } else if (neededBy.isPresent() && !atCommittedKey) {
                needed++;
                action = "kept: " + neededBy.get().checkpoint() + " may still need it";
            } else if (delete) {
                boolean removedNow = leftovers.remove(leftover);
                old++;
                removed++;
                action = (removedNow ? "" : "already ")
                        + (leftover.kind() == Leftover.Kind.MULTIPART_UPLOAD ? "aborted" : "deleted")
                        + (atCommittedKey ? " (a stale upload: its key is committed)" : "");
            } else {
                old++;
                action = "would remove";
            }
            out.printf(
                    "%s\t%s\t%s\t%s%s%n",
                    leftover.kind().label(),
                    age(leftover, now),
                    action,
                    leftover.location(),
                    leftover.uploadId().isEmpty() ? "" : " upload " + leftover.uploadId());
        }
        out.printf(
                "%d leftovers under %s: %d older than %s, %d removed, %d named by committed manifests, %d kept for"
                        + " resumable checkpoints%n",
                found.size(), base, old, grace, removed, committed, needed);
        if (!delete && old > 0) {
            out.println("run again with --delete to remove those older than " + grace);
        }
    }

    private Duration gracePeriod() {
        try {
            return TimeUtils.parseDuration(grace);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(
                    spec.commandLine(), "--grace: not a duration: '" + grace + "' (e.g. 1h, 30min, 0s)");
        }
    }

    private static String age(Leftover leftover, Instant now) {
        return leftover.since()
                .map(since -> TimeUtils.formatWithHighestUnit(
                        maxZero(Duration.between(since, now)).withNanos(0)))
                .orElse("age unknown");
    }

    /** A store's clock may run ahead of ours. */
    private static Duration maxZero(Duration duration) {
        return duration.isNegative() ? Duration.ZERO : duration;
    }
}
