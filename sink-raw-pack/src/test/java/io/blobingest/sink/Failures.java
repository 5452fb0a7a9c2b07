package io.blobingest.sink;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One-shot failure switches shared by the test code running inside the MiniCluster (same JVM), so
 * that an injected failure strikes once and the restarted job runs through.
 */
public final class Failures {

    /** Where a failover test makes the job fail. */
    public enum Point {
        /** A map in front of the sink throws while a pack is being written. */
        MID_PACK_WRITE,
        /** The descriptor sink's writer fails its snapshot, after the Raw Pack sink has snapshotted. */
        AFTER_SNAPSHOT_BEFORE_NOTIFY,
        /** The Raw Pack committer throws before committing. */
        IN_COMMITTER,
        /** The descriptor sink throws while receiving committed descriptors. */
        IN_POST_COMMIT_EMISSION
    }

    private static final Set<String> ARMED = ConcurrentHashMap.newKeySet();
    private static final Set<String> FIRED = ConcurrentHashMap.newKeySet();

    private Failures() {}

    public static void arm(String runId, Point point) {
        ARMED.add(runId + "/" + point);
    }

    /** True exactly once per armed switch: the caller then throws. */
    public static boolean fireOnce(String runId, Point point) {
        String key = runId + "/" + point;
        if (ARMED.remove(key)) {
            FIRED.add(key);
            return true;
        }
        return false;
    }

    public static boolean fired(String runId, Point point) {
        return FIRED.contains(runId + "/" + point);
    }

    /** The exception an injected failure throws; its message says where it struck. */
    public static IllegalStateException injected(Point point, String detail) {
        return new IllegalStateException("injected test failure " + point + ": " + detail);
    }
}
