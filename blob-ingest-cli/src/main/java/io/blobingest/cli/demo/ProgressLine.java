package io.blobingest.cli.demo;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

/**
 * A status line on stderr. On a terminal it is rewritten in place; otherwise (a file, a test) a
 * line is written at most every few seconds, so logs stay short.
 */
public final class ProgressLine {

    private static final long QUIET_NANOS = Duration.ofSeconds(5).toNanos();

    private final PrintWriter err;
    private final boolean interactive;
    private int shownLength;
    private long lastLine = Long.MIN_VALUE;

    public ProgressLine(PrintWriter err, boolean interactive) {
        this.err = err;
        this.interactive = interactive;
    }

    /** Replaces the line being shown with {@code text}. */
    public void show(String text) {
        if (interactive) {
            err.print("\r" + text + " ".repeat(Math.max(0, shownLength - text.length())));
            shownLength = text.length();
            err.flush();
        } else if (lastLine == Long.MIN_VALUE || System.nanoTime() - lastLine >= QUIET_NANOS) {
            err.println(text);
            lastLine = System.nanoTime();
        }
    }

    /** Shows {@code text} as the line's final state and ends the line. */
    public void finish(String text) {
        if (interactive) {
            show(text);
            err.println();
        } else {
            err.println(text);
        }
        shownLength = 0;
        lastLine = Long.MIN_VALUE;
    }

    /** {@code [ 12.0 s] 1,234 of 2,000 records committed | 98.0 blobs/s | 12.3 MiB/s | 7 packs | 12 dead letters}. */
    public static String jobProgress(CommittedProgress.Totals totals, int expected, Duration elapsed) {
        double seconds = Math.max(elapsed.toMillis(), 1) / 1000.0;
        return String.format(
                Locale.ROOT,
                "[%5.1f s] %,d of %,d records committed | %.1f blobs/s | %.1f MiB/s | %,d packs | %,d dead letters",
                seconds,
                totals.records(),
                expected,
                totals.descriptors() / seconds,
                totals.bytesPlaced() / seconds / (1024.0 * 1024.0),
                totals.packs(),
                totals.deadLetters());
    }
}
