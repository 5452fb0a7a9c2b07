package io.blobingest.bench.internal;

import java.time.Duration;

/**
 * What a contender read and how long it took, before its JVM adds CPU time and peak RSS.
 *
 * @param restarts times its job failed over and restarted from a checkpoint (its time then includes the replay)
 */
record Tally(long records, long bytes, Duration elapsed, long restarts) {

    /** A contender that never restarts. */
    Tally(long records, long bytes, Duration elapsed) {
        this(records, bytes, elapsed, 0);
    }
}
