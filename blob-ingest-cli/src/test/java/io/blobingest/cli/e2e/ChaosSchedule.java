package io.blobingest.cli.e2e;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The chaos run's faults, shared by the test thread and the hooks inside the MiniCluster (same
 * JVM): the test arms one fault at a time; a hook strikes it once, when its count-based condition
 * holds, and leaves the evidence of what it did.
 */
final class ChaosSchedule {

    /** The faults, in the order they strike. */
    enum Fault {
        TASK_EXCEPTION_MID_PACK,
        FAILURE_BETWEEN_CHECKPOINT_COMPLETION_AND_NOTIFICATION,
        BROKER_RESTART,
        S3_RESTART_DURING_COMMIT,
        DISK_FULL,
        PROCESS_KILL
    }

    private static volatile Fault armed;
    private static volatile long lastCheckpointAtArming;
    private static final AtomicLong LAST_COMPLETED_CHECKPOINT = new AtomicLong(-1);
    private static final Map<Fault, String> STRUCK = new ConcurrentHashMap<>();
    private static final AtomicInteger RESTORED_SUBTASKS = new AtomicInteger();
    private static final CountDownLatch BROKER_RESTART_DUE = new CountDownLatch(1);

    private ChaosSchedule() {}

    /** Arms {@code fault}: it strikes once a checkpoint has completed after this call. */
    static void arm(Fault fault) {
        lastCheckpointAtArming = LAST_COMPLETED_CHECKPOINT.get();
        armed = fault;
    }

    static Fault armed() {
        return armed;
    }

    /** Whether a checkpoint completed since the armed fault was armed: there is state to restore. */
    static boolean checkpointCompletedSinceArming() {
        return LAST_COMPLETED_CHECKPOINT.get() > lastCheckpointAtArming;
    }

    static long lastCompletedCheckpoint() {
        return LAST_COMPLETED_CHECKPOINT.get();
    }

    static void checkpointCompleted(long checkpointId) {
        LAST_COMPLETED_CHECKPOINT.accumulateAndGet(checkpointId, Math::max);
    }

    /** True for the one caller that strikes the armed {@code fault}; {@code evidence} says what it did. */
    static synchronized boolean strike(Fault fault, String evidence) {
        if (armed != fault) {
            return false;
        }
        armed = null;
        STRUCK.put(fault, evidence);
        return true;
    }

    static boolean struck(Fault fault) {
        return STRUCK.containsKey(fault);
    }

    static String evidence(Fault fault) {
        return STRUCK.get(fault);
    }

    /** Adds to the evidence of a fault that struck (what happened after it). */
    static void addEvidence(Fault fault, String more) {
        STRUCK.merge(fault, more, (before, after) -> before + "; " + after);
    }

    static void subtaskRestored() {
        RESTORED_SUBTASKS.incrementAndGet();
    }

    /** Subtask instances that started from a restored checkpoint, over all attempts. */
    static int restoredSubtasks() {
        return RESTORED_SUBTASKS.get();
    }

    /** Called by the hook that strikes {@link Fault#BROKER_RESTART}: the test thread restarts the broker. */
    static void brokerRestartDue() {
        BROKER_RESTART_DUE.countDown();
    }

    static void awaitBrokerRestartDue(Duration timeout) throws InterruptedException {
        if (!BROKER_RESTART_DUE.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the broker restart was not due within " + timeout);
        }
    }
}
