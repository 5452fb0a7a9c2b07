package io.blobingest.job.cli;

import io.blobingest.job.gc.Leftover;
import io.blobingest.job.gc.Leftovers;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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

    @Mixin
    StorageOptions storageOptions;

    @Override
    public Integer call() throws IOException {
        Duration gracePeriod = gracePeriod();
        if (!Locations.isLocal(base)) {
            storageOptions.initializeFileSystems();
        }
        try (Leftovers leftovers = Leftovers.under(Locations.toUri(base), storageOptions.configuration())) {
            report(leftovers, gracePeriod, spec.commandLine().getOut());
        }
        return BlobIngestCli.EXIT_OK;
    }

    private void report(Leftovers leftovers, Duration gracePeriod, PrintWriter out) throws IOException {
        List<Leftover> found = leftovers.find();
        // Ages count from after the listing: a store may stamp what it lists with its own clock.
        Instant now = Instant.now();
        int old = 0;
        int removed = 0;
        int committed = 0;
        for (Leftover leftover : found) {
            String action;
            boolean atCommittedKey = leftovers.namedByCommittedManifest(leftover);
            if (atCommittedKey && leftover.kind() != Leftover.Kind.MULTIPART_UPLOAD) {
                committed++;
                action = "kept: a committed manifest names it";
            } else if (!leftover.olderThan(gracePeriod, now)) {
                action = "kept: younger than " + grace;
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
                "%d leftovers under %s: %d older than %s, %d removed, %d named by committed manifests%n",
                found.size(), base, old, grace, removed, committed);
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
