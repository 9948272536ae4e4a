package dev.kubeloop.test;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A version counter the runtime's threads bump whenever something happens, and a test thread can
 * wait on for the next bump (or a timeout). Bumping never blocks for long: the lock only guards
 * the counter and the condition.
 */
final class RuntimeSignal {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long version;

    void changed() {
        lock.lock();
        try {
            version++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    long version() {
        lock.lock();
        try {
            return version;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the version moves past {@code seen}, at most {@code nanos}. */
    void awaitChangeAfter(long seen, long nanos) {
        lock.lock();
        try {
            long remaining = nanos;
            while (version == seen && remaining > 0) {
                remaining = changed.awaitNanos(remaining);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while waiting", e);
        } finally {
            lock.unlock();
        }
    }

}
