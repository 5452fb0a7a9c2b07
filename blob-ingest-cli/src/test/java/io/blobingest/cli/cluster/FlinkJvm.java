package io.blobingest.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One child JVM of a {@link StandaloneFlinkCluster}: a JobManager, a TaskManager or a client, its
 * standard output and error in {@code <name>.out} and its Flink log ({@code log.file}) in {@code
 * <name>.log}, both in the cluster's log directory.
 */
public final class FlinkJvm {

    private static final int SIGKILL_EXIT_CODE = 128 + 9;
    private static final Duration EXIT_TIMEOUT = Duration.ofMinutes(1);

    private final String name;
    private final Process process;
    private final Path out;
    private final Path log;

    private FlinkJvm(String name, Process process, Path out, Path log) {
        this.name = name;
        this.process = process;
        this.out = out;
        this.log = log;
    }

    static FlinkJvm start(
            String name,
            List<String> command,
            Map<String, String> environment,
            Path workingDirectory,
            Path out,
            Path log)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workingDirectory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile());
        builder.environment().putAll(environment);
        return new FlinkJvm(name, builder.start(), out, log);
    }

    public String name() {
        return name;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Its standard output and error. */
    public String output() {
        try {
            return Files.readString(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + out + ": " + e + ")";
        }
    }

    /** Where its standard output and its Flink log are. */
    public String describeLogs() {
        return name + ": " + out + (Files.exists(log) ? ", " + log : "");
    }

    /** SIGKILL: no shutdown hook, no deregistration; checks that it was the JVM that died so. */
    public void kill() throws InterruptedException {
        ProcessHandle handle = process.toHandle();
        assertThat(handle.info().command())
                .as("the killed process")
                .hasValueSatisfying(
                        command -> assertThat(Path.of(command).getFileName()).hasToString("java"));
        process.destroyForcibly();
        assertThat(process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
                .as(name + " died")
                .isTrue();
        assertThat(process.exitValue())
                .as("exit code of " + name + " killed by SIGKILL")
                .isEqualTo(SIGKILL_EXIT_CODE);
    }

    /** Waits for it to end by itself; fails the test after {@code timeout}. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " did not exit within " + timeout + "; " + describeLogs());
        }
        return process.exitValue();
    }

    /** Its exit code; it must have ended. */
    public int exitCode() {
        return process.exitValue();
    }

    /** SIGTERM (Flink's shutdown hooks run), then SIGKILL if it has not ended within a minute. */
    void stop() throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
