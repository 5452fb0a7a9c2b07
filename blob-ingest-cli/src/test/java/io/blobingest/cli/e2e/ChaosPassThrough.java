package io.blobingest.cli.e2e;

import io.blobingest.cli.e2e.ChaosSchedule.Fault;
import io.blobingest.placement.PlacedBlob;
import io.blobingest.placement.Placement;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;

/**
 * Sits in front of the Raw Pack sink in the chaos run, passes placed blobs on unchanged, counts
 * restored subtasks, and strikes the armed fault of {@link ChaosSchedule} that belongs here, each
 * only after its subtask passed {@value #PASSED_BEFORE_STRIKE} blobs and a checkpoint completed
 * since it was armed (so the state restored holds progress):
 *
 * <ul>
 *   <li>{@link Fault#TASK_EXCEPTION_MID_PACK}: throws on a blob while the subtask's open blob set
 *       holds Packed blobs written since its last snapshot.
 *   <li>{@link Fault#FAILURE_BETWEEN_CHECKPOINT_COMPLETION_AND_NOTIFICATION}: subtask 0, after it
 *       snapshotted checkpoint N, holds its task thread on the next blob until checkpoint N has
 *       completed (the other subtask was notified of it), then throws: the task fails with N
 *       complete and its own notification of N never processed, so its committer never committed
 *       N's blob sets before the restore.
 *   <li>{@link Fault#BROKER_RESTART}: signals the test thread, which restarts the broker.
 *   <li>{@link Fault#DISK_FULL}: fills the small disk the S3 writer buffers parts on; the first
 *       restored subtask frees it again.
 * </ul>
 *
 * While a fault is armed and has not struck, every blob is held back a little, so that the input
 * cannot run out before it strikes.
 */
final class ChaosPassThrough extends RichMapFunction<PlacedBlob, PlacedBlob>
        implements CheckpointedFunction, CheckpointListener {

    private static final long serialVersionUID = 1L;
    private static final long HOLD_BACK_MILLIS = 10;
    private static final Duration COMPLETION_TIMEOUT = Duration.ofMinutes(2);
    /** Blobs a subtask passes after a fault is armed before it may strike: the restored checkpoint holds progress. */
    private static final long PASSED_BEFORE_STRIKE = 300;

    /** The file that fills the small disk, or null when the run has none. */
    private final String ballast;

    private Fault seenArmed;
    private long passedSinceArmed;
    private long packedSinceSnapshot;
    private long snapshotted = -1;
    private long notified = -1;

    ChaosPassThrough(Path ballast) {
        this.ballast = ballast == null ? null : ballast.toString();
    }

    @Override
    public PlacedBlob map(PlacedBlob blob) throws InterruptedException, IOException {
        Fault fault = ChaosSchedule.armed();
        if (fault == null) {
            return blob;
        }
        if (fault != seenArmed) {
            seenArmed = fault;
            passedSinceArmed = 0;
        }
        passedSinceArmed++;
        if (blob.placement() == Placement.PACKED) {
            packedSinceSnapshot++;
        }
        boolean ready = passedSinceArmed > PASSED_BEFORE_STRIKE && ChaosSchedule.checkpointCompletedSinceArming();
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        switch (fault) {
            case TASK_EXCEPTION_MID_PACK -> {
                if (ready
                        && packedSinceSnapshot > 0
                        && ChaosSchedule.strike(
                                fault,
                                String.format(
                                        "subtask %d threw before %s, its open blob set holding %d Packed blobs since"
                                                + " checkpoint %d",
                                        subtask, blob.record().source(), packedSinceSnapshot, snapshotted))) {
                    throw injected(fault);
                }
            }
            case FAILURE_BETWEEN_CHECKPOINT_COMPLETION_AND_NOTIFICATION -> {
                if (ready && subtask == 0 && snapshotted > notified) {
                    failAfterCompletionBeforeNotification(fault, snapshotted);
                }
            }
            case BROKER_RESTART -> {
                if (ready
                        && ChaosSchedule.strike(
                                fault,
                                "due when subtask " + subtask + " passed "
                                        + blob.record().source())) {
                    ChaosSchedule.brokerRestartDue();
                }
            }
            case DISK_FULL -> {
                if (ready
                        && packedSinceSnapshot > 0
                        && ballast != null
                        && ChaosSchedule.strike(
                                fault,
                                "subtask " + subtask + " filled the disk before "
                                        + blob.record().source())) {
                    ChaosSchedule.addEvidence(fault, SmallDisk.fill(Path.of(ballast)) + " bytes of ballast");
                }
            }
            default -> {}
        }
        if (ChaosSchedule.armed() == fault) {
            Thread.sleep(HOLD_BACK_MILLIS);
        }
        return blob;
    }

    /**
     * Holds the task thread (so no notification can reach this task) until {@code checkpoint}
     * completed elsewhere, then fails; gives up, to try again with a later checkpoint, if it does
     * not complete in time.
     */
    private void failAfterCompletionBeforeNotification(Fault fault, long checkpoint) throws InterruptedException {
        long deadline = System.nanoTime() + COMPLETION_TIMEOUT.toNanos();
        while (ChaosSchedule.lastCompletedCheckpoint() < checkpoint) {
            if (System.nanoTime() > deadline) {
                snapshotted = notified;
                return;
            }
            Thread.sleep(20);
        }
        if (ChaosSchedule.strike(
                fault,
                String.format(
                        "subtask 0 failed after checkpoint %d completed, before its"
                                + " notification (last notified: %d), with %d Packed blobs in its open blob set",
                        checkpoint, notified, packedSinceSnapshot))) {
            throw injected(fault);
        }
    }

    private static IllegalStateException injected(Fault fault) {
        return new IllegalStateException("injected chaos fault " + fault + ": " + ChaosSchedule.evidence(fault));
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        snapshotted = context.getCheckpointId();
        packedSinceSnapshot = 0;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        notified = Math.max(notified, checkpointId);
        ChaosSchedule.checkpointCompleted(checkpointId);
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws IOException {
        if (context.isRestored()) {
            ChaosSchedule.subtaskRestored();
            if (ballast != null && ChaosSchedule.struck(Fault.DISK_FULL) && SmallDisk.free(Path.of(ballast))) {
                ChaosSchedule.addEvidence(Fault.DISK_FULL, "freed by a restored subtask");
            }
        }
    }
}
