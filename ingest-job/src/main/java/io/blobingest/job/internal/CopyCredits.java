package io.blobingest.job.internal;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The credits for Dedicated copies on their way to the writers behind {@code within-job}
 * sharing's network hop, shared by the two {@link CopyCreditCoordinator}s of a job in its
 * coordinator store: a fetch subtask sends a copy on only with a credit, and the writers' task
 * returns it when the writer is done with the copy. At most {@code limit} copies are therefore
 * queued in front of the writers or being copied, so a checkpoint barrier waits behind at most
 * that many copies at any writer, each bounded by its copy timeout: the bound the chained topology
 * has by the fetch concurrency, kept across the hop.
 *
 * <p>Subtasks ask again until they get one; the subtasks refused are served first come, first
 * served: while one waits, a free credit is kept for the one that has waited longest.
 *
 * <p>Only the coordinators touch it, on the JobManager's main thread. Nothing of it is
 * checkpointed: a failover loses the copies in flight with their credits, and every credit is
 * free again ({@link #reset}).
 */
final class CopyCredits {

    private final int limit;
    private final Deque<Integer> waiting = new ArrayDeque<>();
    private int available;

    CopyCredits(int limit) {
        this.limit = limit;
        this.available = limit;
    }

    /** Whether {@code subtask} gets a credit now; if not, it is in line for one. */
    boolean tryAcquire(int subtask) {
        Integer first = waiting.peek();
        if (available > 0 && (first == null || first == subtask)) {
            available--;
            waiting.remove(subtask);
            return true;
        }
        if (!waiting.contains(subtask)) {
            waiting.add(subtask);
        }
        return false;
    }

    void returned() {
        available = Math.min(limit, available + 1);
    }

    void reset() {
        waiting.clear();
        available = limit;
    }

    int available() {
        return available;
    }
}
