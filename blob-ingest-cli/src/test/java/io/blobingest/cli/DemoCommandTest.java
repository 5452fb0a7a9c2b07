package io.blobingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code demo}'s argument checks, which run before any broker or job starts. */
class DemoCommandTest {

    @TempDir
    Path dir;

    @Test
    void refusesANonEmptyBaseItDidNotMake() throws Exception {
        Path base = Files.createDirectories(dir.resolve("data"));
        Path precious = Files.writeString(base.resolve("precious.txt"), "keep me");

        CliRun run = CliRun.of("demo", "--base", base.toString());

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err()).contains("is not empty and was not made by the demo");
        assertThat(precious).hasContent("keep me");
    }

    @Test
    void refusesFewerRecordsThanTheWorkloadNeeds() {
        CliRun run = CliRun.of("demo", "--base", dir.resolve("out").toString(), "--blobs", "10");

        assertThat(run.exitCode()).isEqualTo(BlobIngestCli.EXIT_USAGE);
        assertThat(run.err()).contains("--blobs must be at least 100, found 10");
        assertThat(dir.resolve("out")).doesNotExist();
    }
}
