package io.blobingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.blobingest.bench.internal.BenchRunner;
import io.blobingest.cli.BlobIngestCli;
import io.blobingest.cli.CliRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bench}'s options as parsed; nothing here runs the bench. */
class BenchCommandTest {

    @TempDir
    Path dir;

    @Test
    void oneTopicUnlessToldOtherwise() {
        assertThat(settings().topics()).isEqualTo(1);
        assertThat(settings("--topics", "4", "--parallelism", "3").topics()).isEqualTo(4);
        assertThat(settings("--topics", "4", "--parallelism", "3").parallelism())
                .as("each of the fleet's topics has as many partitions as the one topic")
                .isEqualTo(3);
    }

    @Test
    void fewerThanOneTopicIsAUsageErrorBeforeAnythingRuns() {
        CliRun run = CliRun.of(
                BenchCli.commandLine(),
                "bench",
                "--topics",
                "0",
                "--output",
                dir.resolve("bench").toString());

        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err()).contains("--topics must be >= 1, found 0");
        assertThat(dir.resolve("bench")).doesNotExist();
    }

    private static BenchRunner.Settings settings(String... args) {
        CommandLine commandLine = new CommandLine(new BenchCommand());
        commandLine.parseArgs(args);
        return commandLine.<BenchCommand>getCommand().settings();
    }
}
