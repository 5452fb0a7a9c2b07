package io.blobingest.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
        Path older = retained("job-a", 3);
        Path newest = retained("job-b", 7);
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

    private Path retained(String job, int checkpoint) throws IOException {
        Path directory = Files.createDirectories(checkpoints().resolve(job).resolve("chk-" + checkpoint));
        Files.write(directory.resolve("_metadata"), new byte[] {1});
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
