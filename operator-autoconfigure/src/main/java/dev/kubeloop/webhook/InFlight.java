package dev.kubeloop.webhook;

import java.time.Duration;

/**
 * Counts requests received whole and not yet answered, so that a stop can wait for exactly them:
 * it returns as soon as the last is answered, or at its grace, never later and never sooner.
 *
 * <p>State ownership: {@code count} is guarded by {@code this}; waiters are woken on every change to 0.
 */
final class InFlight {

    private int count;

    synchronized void begin() {
        count++;
    }

    synchronized void end() {
        count--;
        if (count == 0) {
            notifyAll();
        }
    }

    synchronized int count() {
        return count;
    }

    /** Waits until none is in flight or {@code grace} passed; true if none is. */
    synchronized boolean awaitNone(Duration grace) throws InterruptedException {
        long deadline = System.nanoTime() + grace.toNanos();
        while (count > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }
}
