package io.blobingest.bench.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import one.profiler.AsyncProfiler;

/**
 * async-profiler inside a contender's JVM ({@code bench --profile}): samples the CPU time of every
 * thread, kernel, GC, JIT compiler and native frames included, from the contender's first line to
 * its figures, then writes beside the contender's log {@code <contender>.collapsed} (collapsed
 * stacks), {@code <contender>.html} (a flame graph) and {@code <contender>.profile.txt} ({@link
 * ProfileSummary}).
 *
 * <p>The steady phase is cut out of the same profile: the bench's {@link SteadyStateMonitor} writes
 * {@value #STEADY_FROM} and {@value #STEADY_TO} lines to this JVM's standard input when the
 * contender's committed input crosses the window's ends, and the samples between the two dumps
 * taken then ({@link CollapsedStacks#minus}) go to {@code <contender>.steady.collapsed} and a second
 * section of the summary. The marks are as late as the monitor's sampling period, and the first
 * dump's own CPU falls inside the window.
 */
final class ChildProfiler {

    /** Set by {@link ChildJvm} when profiling: the profile's files are this path plus their suffixes. */
    static final String FILES_PROPERTY = "blob-ingest.bench.profile";
    /** Set to {@code true}: sample wall-clock time instead of CPU. */
    static final String WALL_CLOCK_PROPERTY = "blob-ingest.bench.profile.wall-clock";

    static final String SUMMARY_SUFFIX = ".profile.txt";
    /** The line that marks the steady phase's start on standard input. */
    static final String STEADY_FROM = "steady-from";
    /** The line that marks its end. */
    static final String STEADY_TO = "steady-to";

    private static final int SUMMARY_LIMIT = 25;

    private final AsyncProfiler profiler;
    private final Path files;
    private final String event;
    private final boolean wallClock;
    private List<String> steadyFrom;
    private List<String> steadyTo;
    private Exception markFailure;

    private ChildProfiler(AsyncProfiler profiler, Path files, String event, boolean wallClock) {
        this.profiler = profiler;
        this.files = files;
        this.event = event;
        this.wallClock = wallClock;
    }

    /**
     * Starts sampling if {@link ChildJvm} asked for it. If async-profiler cannot load here (it ships
     * for linux-x64 only), the summary file says so and the contender runs unprofiled.
     */
    static Optional<ChildProfiler> startIfAsked() throws IOException {
        String property = System.getProperty(FILES_PROPERTY);
        if (property == null) {
            return Optional.empty();
        }
        Path files = Path.of(property);
        AsyncProfiler profiler;
        try {
            profiler = AsyncProfiler.getInstance();
        } catch (UnsatisfiedLinkError | UnsupportedOperationException e) {
            writeSummary(
                    files,
                    List.of(files.getFileName() + ": not profiled, async-profiler cannot load on "
                            + System.getProperty("os.name") + "/" + System.getProperty("os.arch") + ": "
                            + e.getMessage()));
            return Optional.empty();
        }
        boolean wallClock = Boolean.getBoolean(WALL_CLOCK_PROPERTY);
        String event;
        if (wallClock) {
            // Every thread sampled whether it runs or waits: what a task thread waits for shows.
            profiler.execute("start,event=wall,interval=" + ProfileSummary.SAMPLE_INTERVAL.toNanos() + ",threads");
            event = "wall (every thread, running or waiting)";
        } else {
            try {
                profiler.execute("start,event=cpu,interval=" + ProfileSummary.SAMPLE_INTERVAL.toNanos() + ",threads");
                event = "cpu (perf_events: kernel frames included)";
            } catch (IllegalStateException perfEventsRefused) {
                // setitimer needs no permission but sees no kernel frames: the kernel's share shows as 0.
                profiler.execute(
                        "start,event=itimer,interval=" + ProfileSummary.SAMPLE_INTERVAL.toNanos() + ",threads");
                event = "itimer (no kernel frames: event cpu was refused: " + perfEventsRefused.getMessage() + ")";
            }
        }
        ChildProfiler started = new ChildProfiler(profiler, files, event, wallClock);
        Thread marks = new Thread(started::readSteadyMarks, "steady-phase-marks");
        marks.setDaemon(true);
        marks.start();
        return Optional.of(started);
    }

    private void readSteadyMarks() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                mark(line.strip());
            }
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                markFailure = e;
            }
        }
    }

    private synchronized void mark(String line) throws IOException {
        if (!line.equals(STEADY_FROM) && !line.equals(STEADY_TO)) {
            throw new IllegalArgumentException(
                    "expected " + STEADY_FROM + " or " + STEADY_TO + " on standard input, found '" + line + "'");
        }
        List<String> dump = profiler.execute("dump,collapsed,ann").lines().toList();
        if (line.equals(STEADY_FROM)) {
            steadyFrom = dump;
        } else {
            steadyTo = dump;
        }
    }

    /** Stops sampling and writes the collapsed stacks, the flame graph and the summary. */
    synchronized void stopAndWrite() throws IOException {
        profiler.execute("stop");
        if (markFailure != null) {
            throw new IOException("taking the steady phase's marks failed", markFailure);
        }
        String collapsed = profiler.execute("dump,collapsed,ann");
        Path collapsedFile = sibling(files, ".collapsed");
        Path flameGraph = sibling(files, ".html");
        Files.writeString(collapsedFile, collapsed, StandardCharsets.UTF_8);
        Files.writeString(flameGraph, profiler.execute("dump,flamegraph"), StandardCharsets.UTF_8);
        ProfileSummary summary = ProfileSummary.of(collapsed.lines().toList());
        List<String> lines = new ArrayList<>();
        lines.add(String.format(
                Locale.ROOT,
                "%s: %,d samples of event %s, every thread, the whole run",
                files.getFileName(),
                summary.samples(),
                event));
        lines.add("collapsed stacks " + collapsedFile + ", flame graph " + flameGraph);
        lines.addAll(summary.lines(SUMMARY_LIMIT, wallClock));
        lines.add("");
        if (steadyFrom != null && steadyTo != null) {
            List<String> steady = CollapsedStacks.minus(steadyTo, steadyFrom);
            Path steadyFile = sibling(files, ".steady.collapsed");
            Files.write(steadyFile, steady, StandardCharsets.UTF_8);
            ProfileSummary steadySummary = ProfileSummary.of(steady);
            lines.add(String.format(
                    Locale.ROOT,
                    "steady phase only (between the bench's marks, as the steady table's window): %,d samples,"
                            + " collapsed stacks %s",
                    steadySummary.samples(),
                    steadyFile));
            lines.addAll(steadySummary.lines(SUMMARY_LIMIT, wallClock));
        } else {
            lines.add("steady phase: not marked (the run had none, or was too short for the bench to see it)");
        }
        writeSummary(files, lines);
    }

    private static void writeSummary(Path files, List<String> lines) throws IOException {
        Files.write(sibling(files, SUMMARY_SUFFIX), lines, StandardCharsets.UTF_8);
    }

    private static Path sibling(Path files, String suffix) {
        return files.resolveSibling(files.getFileName() + suffix);
    }
}
