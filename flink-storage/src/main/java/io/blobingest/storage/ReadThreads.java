package io.blobingest.storage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.annotation.PublicEvolving;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Threads for blocking reads of external objects that their caller waits for with a deadline: one
 * daemon thread per read, named {@code <prefix><n>}, and at most {@code maxThreads} alive at once
 * per name prefix in this JVM (class loader). A thread counts until it has really ended, not until
 * its read was given up: a read that ignores interrupts keeps its thread, and that thread keeps its
 * place against the bound, so stuck reads can never grow the number of threads without limit.
 *
 * <p>The bound is shared by every instance {@linkplain #join joined} under the same prefix, so it
 * holds across task restarts: a restarted task's operator is a new instance in the same
 * TaskManager, and the threads its earlier attempts left stuck in reads (a hung mount) still count
 * against it. Callers put their subtask index in the prefix, so that each subtask has its own
 * bound. Used by the fetch stage and by the sink's copy of Dedicated blobs.
 *
 * <p>Starting is for one thread (the instance's task thread); thread ends may come from any thread.
 */
@PublicEvolving
public final class ReadThreads {

    private static final Logger LOG = LoggerFactory.getLogger(ReadThreads.class);

    /** The threads of every name prefix, outliving the instances that started them. */
    private static final Map<String, Pool> POOLS = new ConcurrentHashMap<>();

    private final Pool pool;
    private final Runnable onThreadEnd;
    /** The live threads this instance started: the ones {@link #stop} interrupts. */
    private final Set<Thread> mine = ConcurrentHashMap.newKeySet();

    private ReadThreads(Pool pool, Runnable onThreadEnd) {
        this.pool = pool;
        this.onThreadEnd = onThreadEnd;
    }

    /**
     * An instance that shares the threads, and their bound, of every other instance under {@code
     * namePrefix} in this JVM, those of earlier task attempts included. A later instance's {@code
     * maxThreads} replaces an earlier one's (the restarted job's configuration holds).
     *
     * @param maxThreads at least 1
     * @param onThreadEnd runs on the ending thread whenever any thread of the prefix has ended,
     *     until {@link #stop}: room may have come free. Must not block.
     */
    public static ReadThreads join(String namePrefix, int maxThreads, Runnable onThreadEnd) {
        if (maxThreads < 1) {
            throw new IllegalArgumentException("read threads must be >= 1, found " + maxThreads);
        }
        Pool pool = POOLS.computeIfAbsent(namePrefix, Pool::new);
        pool.maxThreads = maxThreads;
        ReadThreads threads = new ReadThreads(pool, onThreadEnd);
        pool.members.add(threads);
        return threads;
    }

    public boolean hasRoom() {
        return pool.live.size() < pool.maxThreads;
    }

    /** The threads alive under this prefix, those of earlier instances included. */
    public int alive() {
        return pool.live.size();
    }

    /** Each thread alive under this prefix, by name, with what it reads. */
    public List<String> describeAlive() {
        List<String> alive = new ArrayList<>();
        pool.live.forEach((thread, what) -> alive.add(thread.getName() + " (" + what + ")"));
        return alive;
    }

    /**
     * Waits until {@link #hasRoom()} or the deadline.
     *
     * @param deadlineNanos in {@link System#nanoTime()}'s terms
     * @return whether there is room
     */
    public boolean awaitRoom(long deadlineNanos) throws InterruptedException {
        synchronized (pool) {
            while (!hasRoom()) {
                long remaining = deadlineNanos - System.nanoTime();
                if (remaining <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(pool, remaining);
            }
            return true;
        }
    }

    /**
     * Starts {@code read} on a new thread.
     *
     * @param what the read, for people: a location and an input, never a secret
     * @throws IllegalStateException if {@link #hasRoom()} is false
     */
    public Thread start(String what, Runnable read) {
        Thread thread = new Thread(
                () -> {
                    try {
                        read.run();
                    } finally {
                        pool.ended(Thread.currentThread());
                        mine.remove(Thread.currentThread());
                    }
                },
                pool.namePrefix + pool.started.incrementAndGet());
        thread.setDaemon(true);
        synchronized (pool) {
            if (!hasRoom()) {
                throw new IllegalStateException("all " + pool.maxThreads + " read threads of " + pool.namePrefix
                        + "* are alive; cannot start " + what);
            }
            pool.live.put(thread, what);
        }
        mine.add(thread);
        thread.start();
        return thread;
    }

    /**
     * Interrupts every live thread this instance started, waits up to {@code wait} in all for them
     * to end, and leaves the pool: its {@code onThreadEnd} no longer runs. Threads still alive go on
     * counting against the bound for the instances to come.
     *
     * @return each of this instance's threads still alive, with what it reads
     */
    public List<String> stop(Duration wait) throws InterruptedException {
        pool.members.remove(this);
        mine.forEach(Thread::interrupt);
        long deadline = System.nanoTime() + wait.toNanos();
        for (Thread thread : List.copyOf(mine)) {
            long remaining = deadline - System.nanoTime();
            if (remaining > 0) {
                TimeUnit.NANOSECONDS.timedJoin(thread, remaining);
            }
        }
        List<String> stuck = new ArrayList<>();
        for (Thread thread : mine) {
            String what = pool.live.get(thread);
            if (what != null) {
                stuck.add(thread.getName() + " (" + what + ")");
            }
        }
        return stuck;
    }

    /** The threads of one name prefix and the instances that wait for them to end. */
    private static final class Pool {
        final String namePrefix;
        final AtomicInteger started = new AtomicInteger();
        final Map<Thread, String> live = new ConcurrentHashMap<>();
        final Set<ReadThreads> members = ConcurrentHashMap.newKeySet();
        volatile int maxThreads;

        Pool(String namePrefix) {
            this.namePrefix = namePrefix;
        }

        /** On the ending thread: frees its place and tells every member. */
        void ended(Thread thread) {
            synchronized (this) {
                live.remove(thread);
                notifyAll();
            }
            for (ReadThreads member : members) {
                try {
                    member.onThreadEnd.run();
                } catch (RuntimeException e) {
                    // One member's failure must not keep the others from learning of the free place.
                    LOG.warn("Telling a user of the read threads {}* that {} ended failed", namePrefix, thread, e);
                }
            }
        }
    }
}
