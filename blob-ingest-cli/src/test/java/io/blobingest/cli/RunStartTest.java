package io.blobingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.job.launch.RetainedCheckpoints;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.RecoveryClaimMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where {@code run} starts: a retained checkpoint, a given restore path, or the group's offsets. */
class RunStartTest {

    @TempDir
    Path dir;

    @Test
    void aPlainStartThatFindsARetainedCheckpointResumesFromTheNewestAndClaimsIt() throws IOException {
        Path older = retained("job-1", 3);
        Path newest = retained("job-2", 7);
        Files.setLastModifiedTime(
                older.resolve("_metadata"),
                FileTime.fromMillis(
                        Files.getLastModifiedTime(newest.resolve("_metadata")).toMillis() - 60_000));

        Configuration config =
                configuration(run("--checkpoint-dir", checkpoints().toString()));

        assertThat(Path.of(URI.create(config.get(StateRecoveryOptions.SAVEPOINT_PATH))))
                .isEqualTo(newest);
        assertThat(config.get(StateRecoveryOptions.RESTORE_MODE)).isEqualTo(RecoveryClaimMode.CLAIM);
    }

    @Test
    void anotherLineagesCheckpointIsLeftAloneInOneLine() throws IOException {
        Path others = retained("other-job", 9, "blob-ingest-other");

        CliRun run = CliRun.of(run("--checkpoint-dir", checkpoints().toString(), "--resume"));

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err())
                .contains("--resume: no completed checkpoint under", "of this job's lineage 'blob-ingest-in'");
        assertThat(run.out())
                .containsOnlyOnce("leaving the checkpoints of other jobs under")
                .contains("[blob-ingest-other]");
        assertThat(configuration(run("--checkpoint-dir", checkpoints().toString()))
                        .getOptional(StateRecoveryOptions.SAVEPOINT_PATH))
                .isEmpty();
        assertThat(others.resolve("_metadata")).exists();
    }

    @Test
    void aChangedGroupIdOnTheSameBaseIsRefusedInOneLineUnlessFresh() throws IOException {
        Path earlier = retained(
                "job-1", 6, "blob-ingest-in\nbase=" + dir.resolve("base").toUri() + "\n");

        CliRun run = CliRun.of(run("--checkpoint-dir", checkpoints().toString(), "--group-id", "renamed"));

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err()).contains("under the lineage 'blob-ingest-in'", "--group-id blob-ingest-in", "--fresh");
        assertThat(run.err().lines().filter(line -> line.contains("lineage"))).hasSize(1);
        assertThat(configuration(run("--checkpoint-dir", checkpoints().toString(), "--group-id", "renamed", "--fresh"))
                        .getOptional(StateRecoveryOptions.SAVEPOINT_PATH))
                .isEmpty();
        assertThat(earlier.resolve("_metadata")).exists();
    }

    @Test
    void aChangedBaseIsRefusedInOneLineUnlessFresh() throws IOException {
        retained("job-1", 6, "blob-ingest-in\nbase=" + dir.resolve("old-base").toUri() + "\n");

        CliRun run = CliRun.of(run("--checkpoint-dir", checkpoints().toString()));

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err()).contains("was written with the base", "old-base", "--fresh");
        assertThat(configuration(run("--checkpoint-dir", checkpoints().toString(), "--fresh"))
                        .getOptional(StateRecoveryOptions.SAVEPOINT_PATH))
                .isEmpty();
    }

    @Test
    void aNewestCheckpointWithoutALineageRecordIsRefusedInOneLineBeforeAnythingIsWritten() throws IOException {
        retained("job-1", 3);
        Path unrecorded = Files.createDirectories(checkpoints().resolve("earlier-release-job/chk-8"));
        Files.write(unrecorded.resolve("_metadata"), new byte[] {1});

        CliRun run = CliRun.of(run("--checkpoint-dir", checkpoints().toString()));

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err())
                .contains(
                        "has no lineage record",
                        "-D execution.state-recovery.path=file:" + unrecorded
                                + " -D execution.state-recovery.claim-mode=CLAIM",
                        "--fresh");
        assertThat(run.err().lines().filter(line -> line.contains("lineage record")))
                .hasSize(1);
        assertThat(configuration(run("--checkpoint-dir", checkpoints().toString(), "--fresh"))
                        .getOptional(StateRecoveryOptions.SAVEPOINT_PATH))
                .isEmpty();
        Configuration explicit = configuration(run(
                "--checkpoint-dir",
                checkpoints().toString(),
                "-D",
                StateRecoveryOptions.SAVEPOINT_PATH.key() + "=file:" + unrecorded,
                "-D",
                StateRecoveryOptions.RESTORE_MODE.key() + "=CLAIM"));
        assertThat(explicit.get(StateRecoveryOptions.SAVEPOINT_PATH)).isEqualTo("file:" + unrecorded);
        assertThat(explicit.get(StateRecoveryOptions.RESTORE_MODE)).isEqualTo(RecoveryClaimMode.CLAIM);
    }

    @Test
    void freshStartsFromTheGroupsOffsetsDespiteARetainedCheckpoint() throws IOException {
        retained("job", 4);

        Configuration config =
                configuration(run("--checkpoint-dir", checkpoints().toString(), "--fresh"));

        assertThat(config.getOptional(StateRecoveryOptions.SAVEPOINT_PATH)).isEmpty();
    }

    @Test
    void aGivenRestorePathIsLeftAsItIs() throws IOException {
        retained("job", 4);

        Configuration config = configuration(run(
                "--checkpoint-dir",
                checkpoints().toString(),
                "-D",
                StateRecoveryOptions.SAVEPOINT_PATH.key() + "=file:///savepoints/savepoint-1"));

        assertThat(config.get(StateRecoveryOptions.SAVEPOINT_PATH)).isEqualTo("file:///savepoints/savepoint-1");
    }

    @Test
    void anEmptyCheckpointDirectoryStartsFromTheGroupsOffsetsUnlessResumeAsksForACheckpoint() throws IOException {
        assertThat(configuration(run("--checkpoint-dir", checkpoints().toString()))
                        .getOptional(StateRecoveryOptions.SAVEPOINT_PATH))
                .isEmpty();

        CliRun resume = CliRun.of(run("--checkpoint-dir", checkpoints().toString(), "--resume"));
        assertThat(resume.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(resume.err()).contains("--resume: no completed checkpoint under");
    }

    @Test
    void anUnboundedRunWithoutACheckpointDirectoryIsRefusedUnlessFresh() throws IOException {
        CliRun refused = CliRun.of(run());
        assertThat(refused.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(refused.err()).contains("an unbounded run needs --checkpoint-dir", "--fresh");

        assertThat(configuration(run("--fresh")).getOptional(StateRecoveryOptions.SAVEPOINT_PATH))
                .isEmpty();
        assertThat(configuration(run("--bounded")).getOptional(StateRecoveryOptions.SAVEPOINT_PATH))
                .isEmpty();
    }

    @Test
    void resumeAndFreshExcludeEachOther() {
        CliRun run = CliRun.of(run("--checkpoint-dir", checkpoints().toString(), "--resume", "--fresh"));

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err()).contains("--resume and --fresh exclude each other");
    }

    private Path checkpoints() {
        return dir.resolve("checkpoints");
    }

    /** A completed checkpoint of the lineage of {@link #run}: its default group, {@code blob-ingest-in}. */
    private Path retained(String job, int checkpoint) throws IOException {
        return retained(job, checkpoint, "blob-ingest-in");
    }

    private Path retained(String job, int checkpoint, String lineage) throws IOException {
        Path directory = Files.createDirectories(checkpoints().resolve(job).resolve("chk-" + checkpoint));
        Files.write(directory.resolve("_metadata"), new byte[] {1});
        Files.writeString(checkpoints().resolve(job).resolve(RetainedCheckpoints.LINEAGE_RECORD), lineage);
        return directory;
    }

    private String[] run(String... options) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--bootstrap-servers",
                "localhost:1",
                "--input-topic",
                "in",
                "--descriptor-topic",
                "out",
                "--dlq-topic",
                "dlq",
                "--base",
                dir.resolve("base").toString()));
        args.addAll(List.of(options));
        return args.toArray(String[]::new);
    }

    private static Configuration configuration(String... args) throws IOException {
        return ConfigurationDocsTest.configuration(args);
    }
}
