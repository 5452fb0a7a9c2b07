package io.blobingest.job.testing;

import io.blobingest.placement.PlacedBlob;
import io.blobingest.sink.Failures;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;

/**
 * Sits in front of the Raw Pack sink, passes placed blobs on unchanged, counts the subtasks that
 * were restored from a checkpoint, and for two failure points fails once, after a subtask has
 * passed {@code failAfter} blobs and seen a checkpoint complete (so the restart restores state):
 *
 * <ul>
 *   <li>{@link Failures.Point#MID_PACK_WRITE}: on the next blob, while the sink has an open pack.
 *       Until a checkpoint has completed, blobs past {@code failAfter} are held back a little,
 *       so that the input cannot run out before the failure strikes.
 *   <li>{@link Failures.Point#AFTER_SNAPSHOT_BEFORE_NOTIFY}: in its next snapshot. Chained in front
 *       of the sink, it is snapshotted after the sink (Flink snapshots a chain from its tail), so
 *       the checkpoint fails once the sink's writer and committer have taken their snapshot and
 *       before anyone is notified of its completion.
 * </ul>
 */
public final class FailOncePassThrough
        implements MapFunction<PlacedBlob, PlacedBlob>, CheckpointedFunction, CheckpointListener {

    private static final long serialVersionUID = 1L;
    private static final long HOLD_BACK_MILLIS = 10;
    private static final ConcurrentMap<String, AtomicInteger> RESTORED_SUBTASKS = new ConcurrentHashMap<>();

    private final String runId;
    private final Failures.Point point;
    private final long failAfter;
    private long passed;
    private boolean checkpointCompleted;

    public FailOncePassThrough(String runId, Failures.Point point, long failAfter) {
        this.runId = runId;
        this.point = point;
        this.failAfter = failAfter;
        RESTORED_SUBTASKS.putIfAbsent(runId, new AtomicInteger());
    }

    /** How many subtask instances of run {@code runId} started from a restored checkpoint. */
    public static int restoredSubtasks(String runId) {
        return RESTORED_SUBTASKS.get(runId).get();
    }

    @Override
    public PlacedBlob map(PlacedBlob blob) throws InterruptedException {
        if (++passed > failAfter && point == Failures.Point.MID_PACK_WRITE) {
            if (!checkpointCompleted) {
                Thread.sleep(HOLD_BACK_MILLIS);
            } else if (Failures.fireOnce(runId, point)) {
                throw Failures.injected(point, "before " + blob.record().source());
            }
        }
        return blob;
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        if (passed > failAfter
                && checkpointCompleted
                && point == Failures.Point.AFTER_SNAPSHOT_BEFORE_NOTIFY
                && Failures.fireOnce(runId, point)) {
            throw Failures.injected(point, "snapshot of checkpoint " + context.getCheckpointId());
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        checkpointCompleted = true;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
        if (context.isRestored()) {
            RESTORED_SUBTASKS.get(runId).incrementAndGet();
        }
    }
}
