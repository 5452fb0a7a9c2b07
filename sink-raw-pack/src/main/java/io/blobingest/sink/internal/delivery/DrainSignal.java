package io.blobingest.sink.internal.delivery;

import java.util.Arrays;

/**
 * What the two {@link DrainCoordinator}s of one sink know, shared in the job's coordinator store:
 * per drain subtask the first checkpoint it took after its input ended, per emitter subtask how far
 * it is settled. The drains may be released once every drain's input has ended and every emitter
 * is settled through the latest of those checkpoints.
 *
 * <p>Why that checkpoint suffices: each drain passes the end-of-input watermark on before the
 * barrier of that checkpoint, so a writer, which aligns the barriers of all its inputs, has the
 * watermark of every input before it takes the latest of them, and seals its last blob set at that
 * checkpoint or before (aligned checkpoints: Flink refuses unaligned ones across a custom
 * partitioner unless forced).
 *
 * <p>Only the coordinators touch it, on the JobManager's main thread.
 */
final class DrainSignal {

    private long[] endedAt = new long[0];
    private long[] settledThrough = new long[0];
    private boolean emittersRegistered;
    private Runnable onChange = () -> {};

    void register(DrainCoordinator.Role role, int parallelism, Runnable drainListener) {
        long[] unknown = new long[parallelism];
        Arrays.fill(unknown, -1);
        if (role == DrainCoordinator.Role.DRAIN) {
            endedAt = unknown;
            onChange = drainListener;
        } else {
            settledThrough = unknown;
            emittersRegistered = true;
        }
    }

    void inputEnded(int drain, long checkpointId) {
        endedAt[drain] = checkpointId;
        changed();
    }

    void settled(int emitter, long committedThrough) {
        settledThrough[emitter] = Math.max(settledThrough[emitter], committedThrough);
        changed();
    }

    void forget(DrainCoordinator.Role role, int subtask) {
        (role == DrainCoordinator.Role.DRAIN ? endedAt : settledThrough)[subtask] = -1;
    }

    void forgetAll(DrainCoordinator.Role role) {
        Arrays.fill(role == DrainCoordinator.Role.DRAIN ? endedAt : settledThrough, -1);
    }

    boolean released() {
        if (!emittersRegistered || endedAt.length == 0) {
            return false;
        }
        long latestEnd = -1;
        for (long checkpointId : endedAt) {
            if (checkpointId < 0) {
                return false;
            }
            latestEnd = Math.max(latestEnd, checkpointId);
        }
        for (long committedThrough : settledThrough) {
            if (committedThrough < latestEnd) {
                return false;
            }
        }
        return true;
    }

    private void changed() {
        if (released()) {
            onChange.run();
        }
    }
}
