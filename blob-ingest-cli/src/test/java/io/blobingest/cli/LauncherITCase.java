package io.blobingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code ./blob-ingest} launcher script, run as users run it, against the packaged jar. */
class LauncherITCase {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @TempDir
    Path dir;

    @Test
    void launcherWritesAndVerifiesAPack() throws Exception {
        Path input = Files.write(dir.resolve("frame"), new byte[100_000]);
        Path pack = dir.resolve("p.blob");

        Result write = launch("pack", "write", "--out", pack.toString(), input.toString());
        Result verify = launch("pack", "verify", pack.toString());

        assertThat(write.exitCode()).as(write.output()).isZero();
        assertThat(write.output()).contains("wrote " + pack + ": 1 entries");
        assertThat(verify.exitCode()).as(verify.output()).isZero();
        assertThat(verify.output()).contains("1 packs checked, 0 faults");
    }

    @Test
    void launcherReportsBadArgumentsWithUsageAndExitTwo() throws Exception {
        Result result = launch("pack", "--no-such-option");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output()).contains("Usage:").doesNotContain("Exception");
    }

    private record Result(int exitCode, String output) {}

    private Result launch(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ROOT.resolve("blob-ingest").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("launcher finished").isTrue();
        return new Result(process.exitValue(), output);
    }
}
