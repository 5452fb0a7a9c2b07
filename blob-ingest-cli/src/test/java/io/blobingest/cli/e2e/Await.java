package io.blobingest.cli.e2e;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polling for a state another thread or process brings about. */
final class Await {

    private Await() {}

    /** Returns once {@code condition} holds; fails the test naming {@code what} after {@code timeout}. */
    static void until(BooleanSupplier condition, String what, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            Thread.sleep(200);
        }
    }
}
