package io.blobingest.bench.internal;

import io.blobingest.job.launch.LaunchOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs one contender in a JVM of its own, started like this one (same java, class path, {@code
 * --add-opens}), so that its CPU time and peak RSS are its own and Flink's process-wide state
 * (file systems, MiniCluster) never touches the bench's JVM.
 */
public final class ChildJvm {

    private static final long TIMEOUT_MINUTES = 30;
    private static final int LOG_LINES_ON_FAILURE = 30;

    private final Path directory;
    private final boolean profile;
    private final boolean wallClock;

    /**
     * @param directory where each child's log, result file and (with {@code profile}) profile go
     * @param profile sample each child with async-profiler ({@link ChildProfiler})
     * @param wallClock with {@code profile}: sample wall-clock time, waiting included, not CPU
     */
    public ChildJvm(Path directory, boolean profile, boolean wallClock) {
        this.directory = directory;
        this.profile = profile;
        this.wallClock = wallClock;
    }

    /** Where the CPU of {@code contender} went ({@link ChildProfiler}), if it was profiled. */
    public Optional<Path> profileSummary(String contender) {
        Path file = directory.resolve(contender + ChildProfiler.SUMMARY_SUFFIX);
        return profile && Files.exists(file) ? Optional.of(file) : Optional.empty();
    }

    public Path log(String contender) {
        return directory.resolve(contender + ".log");
    }

    /**
     * Runs {@code contender} to its end and returns the line it reported.
     *
     * @param extraArguments appended to the command line (the {@code run} arguments of blob-ingest)
     * @throws IOException if it fails or reports nothing, with the end of its log
     */
    public KeyValueLine run(String contender, KeyValueLine settings, List<String> extraArguments)
            throws IOException, InterruptedException {
        return run(contender, contender, settings, extraArguments, Optional.empty());
    }

    /**
     * Runs {@code contender} to its end, watched by {@code monitor} while it runs, and returns the
     * line it reported.
     *
     * @param name of its log and result files: the contender's, or more for a contender run more than once
     */
    KeyValueLine run(
            String name,
            String contender,
            KeyValueLine settings,
            List<String> extraArguments,
            Optional<SteadyStateMonitor> monitor)
            throws IOException, InterruptedException {
        Files.createDirectories(directory);
        Path result = directory.resolve(name + ".result");
        Files.deleteIfExists(result);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(LaunchOptions.ADD_OPENS);
        String plugins = System.getProperty(LaunchOptions.PLUGINS_DIR_PROPERTY);
        if (plugins != null) {
            command.add("-D" + LaunchOptions.PLUGINS_DIR_PROPERTY + "=" + plugins);
        }
        if (profile) {
            command.add("-D" + ChildProfiler.FILES_PROPERTY + "=" + directory.resolve(name));
            command.add("-D" + ChildProfiler.WALL_CLOCK_PROPERTY + "=" + wallClock);
            // Debug info at every instruction, not only at safepoints: inlined Java frames attributed right.
            command.add("-XX:+UnlockDiagnosticVMOptions");
            command.add("-XX:+DebugNonSafepoints");
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ContenderMain.class.getName());
        command.add(contender);
        command.add(result.toString());
        command.add(settings.toString());
        command.addAll(extraArguments);
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log(name).toFile())
                .start();
        monitor.ifPresent(watching -> watching.start(
                process.toHandle(), profile ? Optional.of(process.getOutputStream()) : Optional.empty()));
        try {
            if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                throw new IOException(name + " did not end within " + TIMEOUT_MINUTES + " min; log: " + log(name));
            }
        } finally {
            process.destroyForcibly();
        }
        if (process.exitValue() != 0 || !Files.exists(result)) {
            throw new IOException(name + " failed (exit " + process.exitValue() + "); the end of " + log(name) + ":\n"
                    + tail(log(name)));
        }
        return KeyValueLine.parse(Files.readString(result, StandardCharsets.UTF_8));
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_LINES_ON_FAILURE), lines.size()));
    }
}
