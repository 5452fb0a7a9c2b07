package io.blobingest.job.bench.internal;

import java.time.Duration;

/** What a contender read and how long it took, before its JVM adds CPU time and peak RSS. */
record Tally(long records, long bytes, Duration elapsed) {}
