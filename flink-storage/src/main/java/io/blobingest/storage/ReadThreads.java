package io.blobingest.storage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads for blocking reads of external objects that their caller waits for with a deadline: one
 * daemon thread per read, named {@code <prefix><n>}, and at most {@code maxThreads} alive at once.
 * A thread counts until it has really ended, not until its read was given up: a read that ignores
 * interrupts keeps its thread, and that thread keeps its place against the bound, so stuck reads
 * can never grow the number of threads without limit. Used by the fetch stage and by the sink's
 * copy of Dedicated blobs.
 *
 * <p>Starting is for one thread (the task's); thread ends may come from any thread.
 */
public final class ReadThreads {

    private final String namePrefix;
    private final int maxThreads;
    private final AtomicInteger started = new AtomicInteger();
    /** Every live thread, with what it reads (for the report of {@link #stop}). */
    private final Map<Thread, String> live = new ConcurrentHashMap<>();

    /** @param maxThreads at least 1 */
    public ReadThreads(String namePrefix, int maxThreads) {
        if (maxThreads < 1) {
            throw new IllegalArgumentException("read threads must be >= 1, found " + maxThreads);
        }
        this.namePrefix = namePrefix;
        this.maxThreads = maxThreads;
    }

    public boolean hasRoom() {
        return live.size() < maxThreads;
    }

    public int alive() {
        return live.size();
    }

    /**
     * Starts {@code read} on a new thread; {@code afterEnd} runs on that thread once it no longer
     * counts, whether the read returned or threw.
     *
     * @param what the read, for people: a location and an input, never a secret
     * @throws IllegalStateException if {@link #hasRoom()} is false
     */
    public Thread start(String what, Runnable read, Runnable afterEnd) {
        if (!hasRoom()) {
            throw new IllegalStateException("all " + maxThreads + " read threads are alive; cannot start " + what);
        }
        Thread thread = new Thread(
                () -> {
                    try {
                        read.run();
                    } finally {
                        live.remove(Thread.currentThread());
                        afterEnd.run();
                    }
                },
                namePrefix + started.incrementAndGet());
        thread.setDaemon(true);
        live.put(thread, what);
        thread.start();
        return thread;
    }

    /**
     * Interrupts every live thread and waits up to {@code wait} in all for them to end.
     *
     * @return each thread still alive, with what it reads
     */
    public List<String> stop(Duration wait) throws InterruptedException {
        live.keySet().forEach(Thread::interrupt);
        long deadline = System.nanoTime() + wait.toNanos();
        for (Thread thread : List.copyOf(live.keySet())) {
            long remaining = deadline - System.nanoTime();
            if (remaining > 0) {
                TimeUnit.NANOSECONDS.timedJoin(thread, remaining);
            }
        }
        List<String> stuck = new ArrayList<>();
        live.forEach((thread, what) -> stuck.add(thread.getName() + " (" + what + ")"));
        return stuck;
    }
}
