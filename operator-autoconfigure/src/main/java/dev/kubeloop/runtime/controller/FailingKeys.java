package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one controller remembers about its failing keys: how many reconciles of each failed in a
 * row (for {@code max-attempts}), which error the reconciler's {@code errorStatus} last reported
 * (so that it runs once per distinct error, not per retry), and which keys rest because they ran
 * out of attempts.
 *
 * <p>A key rests by not being queued again ({@link ReconcileOutcome#RETRIES_EXHAUSTED} forgets
 * it): whatever queues it later (an event of its object, of an owned or watched object, a resync,
 * a trigger) wakes it, with a fresh count of attempts. The error last reported survives the rest,
 * so that waking to the same error does not report it again; a new generation or a success does.
 *
 * <p>State ownership: two concurrent maps and a concurrent set, keyed by the key; only the worker
 * holding a key reads or writes its entries (the queue never hands a key to two workers), apart
 * from {@link #resting()}, which metrics read from any thread. Entries exist only for keys whose
 * last reconcile failed or that rest, and go when the key succeeds or its object is gone.
 */
final class FailingKeys {

    private final int maxAttempts;
    private final ConcurrentHashMap<ObjectKey, Integer> failuresInARow = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ObjectKey, String> reportedErrors = new ConcurrentHashMap<>();
    private final Set<ObjectKey> resting = ConcurrentHashMap.newKeySet();

    /** @param maxAttempts failures in a row after which a key rests; 0: never */
    FailingKeys(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    /** A worker took {@code key}: it no longer rests. */
    void started(ObjectKey key) {
        resting.remove(key);
    }

    /**
     * Counts a failed reconcile of {@code key} (an error or a timeout; conflicts do not count).
     *
     * @return the failures in a row, this one included
     */
    int failed(ObjectKey key) {
        return failuresInARow.merge(key, 1, Integer::sum);
    }

    /** Whether {@code failures} in a row use up the key's attempts. */
    boolean exhausted(int failures) {
        return maxAttempts > 0 && failures >= maxAttempts;
    }

    /** {@code key} ran out of attempts: it rests, and counts afresh when something wakes it. */
    void rest(ObjectKey key) {
        failuresInARow.remove(key);
        resting.add(key);
    }

    /**
     * Whether {@code error} is news for {@code key}'s error status: another error than the one last
     * reported (its fingerprint: class, message and the object's generation). Records it.
     */
    boolean report(ObjectKey key, String fingerprint) {
        return !fingerprint.equals(reportedErrors.put(key, fingerprint));
    }

    /** The report of {@code fingerprint} did not get through: the next failure tries again. */
    void unreported(ObjectKey key, String fingerprint) {
        reportedErrors.remove(key, fingerprint);
    }

    /**
     * A reconcile of {@code key} failed terminally: it is not retried, so there is nothing to count;
     * the error it reported stays (an event that is not a change of the spec must not report it again).
     */
    void terminal(ObjectKey key) {
        failuresInARow.remove(key);
    }

    /** A reconcile of {@code key} did not fail: its failures are over. */
    void succeeded(ObjectKey key) {
        failuresInARow.remove(key);
        reportedErrors.remove(key);
    }

    /** {@code key}'s object is gone. */
    void forget(ObjectKey key) {
        succeeded(key);
        resting.remove(key);
    }

    /** How many keys rest now. */
    int resting() {
        return resting.size();
    }

    /** Whether {@code key} rests now. */
    boolean isResting(ObjectKey key) {
        return resting.contains(key);
    }
}
