package io.blobingest.bench.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * This process's CPU time and peak resident set, read by the contender's own JVM at its end, so
 * that each contender's figures are its own and nothing else's.
 */
final class ProcessStats {

    private static final Path STATUS = Path.of("/proc/self/status");

    private ProcessStats() {}

    /** CPU time of every thread of this process so far (user and system). */
    static Duration cpuTime() {
        return ProcessHandle.current()
                .info()
                .totalCpuDuration()
                .orElseThrow(() -> new IllegalStateException("this platform does not report a process's CPU time"));
    }

    /** Peak resident set size in bytes ({@code VmHWM} of {@code /proc/self/status}). */
    static long peakResidentBytes() throws IOException {
        for (String line : Files.readAllLines(STATUS)) {
            if (line.startsWith("VmHWM:")) {
                return parseKilobytes(line) * 1024;
            }
        }
        throw new IOException(STATUS + " has no VmHWM line");
    }

    /** {@code "VmHWM:    123456 kB"} to 123456. */
    static long parseKilobytes(String statusLine) {
        String[] parts = statusLine.trim().split("\\s+");
        if (parts.length != 3 || !parts[2].equals("kB")) {
            throw new IllegalArgumentException("not a '<name>: <n> kB' line: '" + statusLine + "'");
        }
        return Long.parseLong(parts[1]);
    }
}
