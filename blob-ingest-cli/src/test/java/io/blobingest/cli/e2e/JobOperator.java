package io.blobingest.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an operator does with an unbounded {@code ./blob-ingest run}: starts it, and whenever it
 * has exited, reads the one line it printed about why and starts the same command again. Each
 * start's output goes to its own log file, {@code run-<n>.log}.
 */
final class JobOperator implements AutoCloseable {

    /** The line {@code ./blob-ingest} prints when a command fails (JobCli's execution exception handler). */
    private static final Pattern EXPLANATION = Pattern.compile("(?m)^error: .*$");

    /** A start's end as the operator saw it: the exit code and the one line explaining it. */
    record Exit(int start, int exitCode, String explanation) {}

    private final List<String> command;
    private final Path logs;
    private final int maxStarts;
    private final List<Exit> exits = new ArrayList<>();
    private final List<ChildProcess> children = new ArrayList<>();

    /**
     * @param maxStarts the most starts this operator makes: a job that keeps exiting fails the test
     */
    JobOperator(List<String> command, Path logs, int maxStarts) {
        this.command = List.copyOf(command);
        this.logs = logs;
        this.maxStarts = maxStarts;
    }

    void start() throws IOException {
        assertThat(children.size())
                .as("starts of the job; its exits: %s", exits)
                .isLessThan(maxStarts);
        children.add(ChildProcess.start(command, logs.resolve("run-" + (children.size() + 1) + ".log")));
    }

    /**
     * If the running job has exited: records its exit, checks that it said why in one line, and
     * starts the same command again. Returns whether it restarted.
     */
    boolean restartIfExited() throws IOException {
        ChildProcess current = current();
        if (current.process().isAlive()) {
            return false;
        }
        String output = current.output();
        Matcher explanation = EXPLANATION.matcher(output);
        Exit exit = new Exit(
                children.size(),
                current.process().exitValue(),
                explanation.find() ? explanation.group() : "(no error: line)");
        exits.add(exit);
        assertThat(exit.explanation())
                .as(
                        "the line %s printed when it exited with %d; its output:%n%s",
                        current.log(), exit.exitCode(), output)
                .startsWith("error: ")
                .contains("caused by");
        start();
        return true;
    }

    /** Flink's log line for a task that failed: a stack trace follows it. */
    private static final Pattern TASK_FAILED =
            Pattern.compile("(?m)^.* switched from \\w+ to FAILED with failure cause.*$");
    /** The line {@code run} prints when its job fails and restarts (FailureReporter). */
    private static final Pattern FAILURE_REPORTED = Pattern.compile(
            "(?m)^blob-ingest: job \\p{XDigit}+ failed at .* and restarts from its last checkpoint: .+$");

    /**
     * Every start whose log shows a task failure (Flink's line and stack trace) also printed one
     * line saying that the job failed, why, and what happens next: a restart, or its exit.
     */
    void assertEveryFailureExplainedInOneLine() {
        for (ChildProcess child : children) {
            String output = child.output();
            Matcher failed = TASK_FAILED.matcher(output);
            if (failed.find()) {
                assertThat(FAILURE_REPORTED.matcher(output).find()
                                || EXPLANATION.matcher(output).find())
                        .as(
                                "%s shows a task failure (%s) and a stack trace; does it say in one line what"
                                        + " happened?",
                                child.log(), failed.group())
                        .isTrue();
            }
        }
    }

    /** The first line since {@code mark} that says the job failed: a restart's report, or the exit's error. */
    Optional<String> firstFailureReportSince(Mark mark) {
        return firstLineSince(mark, FAILURE_REPORTED).or(() -> firstLineSince(mark, EXPLANATION));
    }

    /** A point in the job's output: the start running then, and how many chars it had printed. */
    record Mark(int start, int chars) {}

    Mark mark() {
        return new Mark(children.size(), current().output().length());
    }

    /** The first line matching {@code pattern} that any start printed after {@code mark}. */
    Optional<String> firstLineSince(Mark mark, Pattern pattern) {
        for (int start = mark.start(); start <= children.size(); start++) {
            String output = children.get(start - 1).output();
            int from = start == mark.start() ? Math.min(mark.chars(), output.length()) : 0;
            Matcher matcher = pattern.matcher(output.substring(from));
            if (matcher.find()) {
                String line = matcher.group();
                return Optional.of(
                        "run-" + start + ": " + (line.length() > 200 ? line.substring(0, 200) + "..." : line));
            }
        }
        return Optional.empty();
    }

    List<Exit> exits() {
        return List.copyOf(exits);
    }

    int starts() {
        return children.size();
    }

    ChildProcess current() {
        return children.get(children.size() - 1);
    }

    void printOutputs() {
        ChildProcess.printOutputs(children.toArray(ChildProcess[]::new));
    }

    @Override
    public void close() throws InterruptedException {
        ChildProcess.destroyAll(children.toArray(ChildProcess[]::new));
    }
}
