package dev.kubeloop.runtime.cache;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Whether one informer's list and watch work, and if not, since when and why. fabric8 keeps
 * retrying a failed watch (its reconnects back off to 32 s apart, and each attempt's request is
 * itself retried for up to ~20 s) and a failed re-list, logging at DEBUG only; its informer's
 * {@code isWatching()} is the only outward sign. So {@link ListWatchMonitor} samples that, and an
 * informer that has not been watching for {@code failingAfter} is <em>failing</em> until it
 * watches again: one transition each way, which the monitor logs, and which the status, health and
 * metrics show.
 *
 * <p>State ownership: written only by the monitor's thread, and by {@link #reset()} under the
 * entry's monitor while the informer is stopped or replaced (the monitor then skips it); volatile
 * or atomic, read by status readers on any thread.
 */
final class ListWatchHealth {

    /** A change of state that {@link #check} saw. */
    enum Transition {
        NONE, STARTED_FAILING, RECOVERED
    }

    private volatile long notWatchingSince = -1;
    private volatile Instant failingSince;
    private volatile String reason;
    private volatile Duration lastFailedFor;
    private final LongAdder failures = new LongAdder();

    /**
     * One sample, on the monitor's thread.
     *
     * @param watching whether the informer's watch is open now
     * @param nanos now, {@link System#nanoTime()}
     * @param why asked once, when it starts failing
     */
    Transition check(boolean watching, long nanos, Duration failingAfter, Supplier<String> why) {
        if (watching) {
            notWatchingSince = -1;
            Instant since = failingSince;
            if (since == null) {
                return Transition.NONE;
            }
            lastFailedFor = Duration.between(since, Instant.now());
            failingSince = null;
            reason = null;
            return Transition.RECOVERED;
        }
        if (notWatchingSince < 0) {
            notWatchingSince = nanos;
        }
        if (failingSince != null || nanos - notWatchingSince < failingAfter.toNanos()) {
            return Transition.NONE;
        }
        reason = why.get();
        failingSince = Instant.now().minusNanos(System.nanoTime() - notWatchingSince);
        failures.increment();
        return Transition.STARTED_FAILING;
    }

    /** Forgets the failing state without a transition: the informer stopped, or a new one starts. */
    void reset() {
        notWatchingSince = -1;
        failingSince = null;
        reason = null;
    }

    /** Since when it fails (its first sample not watching); null while it works. */
    Instant failingSince() {
        return failingSince;
    }

    /** Why it fails, as when it started failing; null while it works. */
    String reason() {
        return reason;
    }

    /** How long its last failure lasted; null if it never recovered from one. */
    Duration lastFailedFor() {
        return lastFailedFor;
    }

    /** How often it started failing. */
    long failures() {
        return failures.sum();
    }
}
