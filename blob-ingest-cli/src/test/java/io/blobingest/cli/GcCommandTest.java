package io.blobingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.launch.RetainedCheckpoints;
import io.blobingest.objectlayer.BlobSets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gc} on local disk: hidden in-progress files of Flink's local recoverable writer. */
class GcCommandTest {

    private static final String UUID_1 = "0b5c6d2e-8f3a-4c1d-9e7b-1a2b3c4d5e6f";
    private static final String UUID_2 = "7e8f9a0b-1c2d-4e3f-8a9b-0c1d2e3f4a5b";

    @TempDir
    Path base;

    private Path committedSidecar;
    private Path committedManifest;
    private Path oldInProgress;
    private Path youngInProgress;
    private Path oldManifestInProgress;

    @BeforeEach
    void aBaseWithOneCommittedSetAndLeftovers() throws IOException {
        Path committedSet = Files.createDirectories(base.resolve("run1-0-0"));
        committedSidecar = Files.write(committedSet.resolve(BlobSets.sidecarFileName(1)), new byte[] {1});
        committedManifest = Files.write(
                Files.createDirectories(base.resolve(BlobSets.DESCRIPTORS_DIRECTORY))
                        .resolve("run1-0-0.arrow"),
                new byte[] {2});
        Path abandonedSet = Files.createDirectories(base.resolve("run2-1-3"));
        oldInProgress = inProgress(abandonedSet, BlobSets.sidecarFileName(1), UUID_1, Duration.ofHours(3));
        youngInProgress = inProgress(abandonedSet, BlobSets.sidecarFileName(2), UUID_2, Duration.ofMinutes(5));
        oldManifestInProgress =
                inProgress(base.resolve(BlobSets.DESCRIPTORS_DIRECTORY), "run2-1-3.arrow", UUID_1, Duration.ofHours(2));
        setAge(committedSidecar, Duration.ofDays(3));
        setAge(committedManifest, Duration.ofDays(3));
    }

    @Test
    void listsInProgressFilesWithoutRemovingAnything() {
        CliRun run = CliRun.of("gc", "--base", base.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains(
                        "in-progress-file",
                        oldInProgress.toUri().getPath(),
                        youngInProgress.toUri().getPath(),
                        oldManifestInProgress.toUri().getPath())
                .contains("3 leftovers under " + base + ": 2 older than 1h, 0 removed")
                .contains("run again with --delete")
                .doesNotContain("run1-0-0");
        assertThat(oldInProgress).exists();
        assertThat(youngInProgress).exists();
    }

    @Test
    void deleteRemovesOnlyInProgressFilesOlderThanTheGracePeriod() {
        CliRun run = CliRun.of("gc", "--base", base.toString(), "--delete", "--grace", "1h", "--no-checkpoints");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("2 removed").contains("kept: younger than 1h");
        assertThat(oldInProgress).doesNotExist();
        assertThat(oldManifestInProgress).doesNotExist();
        assertThat(youngInProgress).exists();
        assertThat(committedSidecar).exists();
        assertThat(committedManifest).exists();
    }

    @Test
    void aGraceOfZeroRemovesEveryLeftoverButNothingCommitted() {
        CliRun run = CliRun.of("gc", "--base", base.toString(), "--delete", "--grace", "0s", "--no-checkpoints");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("3 removed");
        assertThat(youngInProgress).doesNotExist();
        assertThat(committedSidecar).exists();
        assertThat(committedManifest).exists();
    }

    @Test
    void deleteMustKnowTheCheckpointsThatMayBeResumed() {
        CliRun run = CliRun.of("gc", "--base", base.toString(), "--delete");

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err()).contains("gc --delete must know", "--checkpoint-dir", "--no-checkpoints");
        assertThat(oldInProgress).exists();
    }

    @Test
    void whatARetainedCheckpointOfTheBaseMayStillNeedIsKept(@TempDir Path checkpoints) throws IOException {
        // A job writing this base, checkpointed a moment ago; its sets stay open up to 2.5 h.
        Path checkpoint = Files.createDirectories(checkpoints.resolve("job-1/chk-7"));
        Files.write(checkpoint.resolve("_metadata"), new byte[] {1});
        Files.writeString(
                checkpoints.resolve("job-1").resolve(RetainedCheckpoints.LINEAGE_RECORD),
                "job\nbase=" + base.toUri() + "\nopen-window=PT2H30M\n");
        // Another job's checkpoint, on another base, protects nothing here.
        Path other = Files.createDirectories(checkpoints.resolve("job-2/chk-1"));
        Files.write(other.resolve("_metadata"), new byte[] {1});
        Files.writeString(
                checkpoints.resolve("job-2").resolve(RetainedCheckpoints.LINEAGE_RECORD),
                "other\nbase=file:/elsewhere\nopen-window=PT100H\n");

        CliRun run = CliRun.of(
                "gc",
                "--base",
                base.toString(),
                "--delete",
                "--grace",
                "1h",
                "--checkpoint-dir",
                checkpoints.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("kept: file:" + checkpoint + " may still need it")
                .contains("1 removed")
                .contains("1 kept for resumable checkpoints");
        assertThat(oldInProgress).as("3 h old, before the window").doesNotExist();
        assertThat(oldManifestInProgress).as("2 h old, in the window").exists();
        assertThat(youngInProgress).exists();
    }

    @Test
    void aSavepointKeepsEverythingStartedBeforeIt(@TempDir Path savepoint) throws IOException {
        Files.write(savepoint.resolve("_metadata"), new byte[] {1});

        CliRun run = CliRun.of(
                "gc", "--base", base.toString(), "--delete", "--grace", "1h", "--savepoint", savepoint.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("0 removed", "2 kept for resumable checkpoints");
        assertThat(oldInProgress).exists();
        assertThat(oldManifestInProgress).exists();
    }

    @Test
    void aBadGracePeriodIsAUsageError() {
        CliRun run = CliRun.of("gc", "--base", base.toString(), "--grace", "soon");

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err()).contains("--grace").contains("Usage:");
    }

    private static Path inProgress(Path directory, String target, String uuid, Duration age) throws IOException {
        Path file = Files.write(directory.resolve("." + target + ".inprogress." + uuid), new byte[100]);
        setAge(file, age);
        return file;
    }

    private static void setAge(Path file, Duration age) throws IOException {
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
    }
}
