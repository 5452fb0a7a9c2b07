package io.blobingest.bench;

import java.time.Duration;

/**
 * The physical limit a contender writing to the workload's directory meets: one sequential write of
 * the workload's bytes to a file in that directory, once ended by an fsync (what {@code dd
 * conv=fdatasync} measures: the bytes on the device) and once without (what the page cache takes).
 *
 * @param bytes bytes written each time
 * @param synced the write, fsync included
 * @param unsynced the write alone, the file closed without an fsync
 */
public record DiskFigures(long bytes, Duration synced, Duration unsynced) {

    public double syncedMegabytesPerSecond() {
        return megabytesPerSecond(synced);
    }

    public double unsyncedMegabytesPerSecond() {
        return megabytesPerSecond(unsynced);
    }

    private double megabytesPerSecond(Duration time) {
        return bytes / 1e6 / Math.max(time.toNanos() / 1e9, 1e-9);
    }
}
