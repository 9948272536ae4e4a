package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one controller's workers are doing and have done, kept for {@link Controller#status()}:
 * the keys in flight with their start time, how many reconciles ended with each outcome, the last
 * failed reconciles (a bounded ring, see {@link RecentErrors}) and when a reconcile last ended
 * without an error. Timing for metrics is the listeners' business; this is the state a health
 * check or a person reads.
 *
 * <p>Thread-safety: workers call {@link #started} and {@link #finished} (a key is only ever held by
 * one worker, so each key's entry is written by one thread at a time); readers take snapshots from
 * any thread. The keys in flight are a {@link ConcurrentHashMap}, the counts {@link LongAdder}s in
 * a map that is never modified after construction, the last success a volatile field.
 */
final class ReconcileActivity {

    private final Clock clock;
    private final Duration reconcileTimeout;
    private final ConcurrentHashMap<ObjectKey, Running> inFlight = new ConcurrentHashMap<>();
    private final RecentErrors recentErrors;
    private final Map<ReconcileOutcome, LongAdder> counts = new EnumMap<>(ReconcileOutcome.class);
    private volatile Instant lastSuccess;

    ReconcileActivity(Clock clock, Duration reconcileTimeout, int recentErrorCapacity) {
        this.clock = clock;
        this.reconcileTimeout = reconcileTimeout;
        this.recentErrors = new RecentErrors(recentErrorCapacity);
        for (ReconcileOutcome outcome : ReconcileOutcome.values()) {
            counts.put(outcome, new LongAdder());
        }
    }

    /** A worker took {@code key}; returns the start time by the monotonic clock. */
    long started(ObjectKey key) {
        long startNanos = System.nanoTime();
        inFlight.put(key, new Running(startNanos, clock.instant()));
        return startNanos;
    }

    /** The worker is done with the key, whatever happened (the report may not exist if the runtime failed). */
    void released(ObjectKey key) {
        inFlight.remove(key);
    }

    /** Records how a reconcile ended. */
    void finished(ReconcileReport report) {
        counts.get(report.outcome()).increment();
        if (!report.outcome().isError()) {
            if (report.outcome() != ReconcileOutcome.GONE) {
                lastSuccess = clock.instant();
            }
            return;
        }
        Throwable error = report.error();
        String message = error == null ? null : error.getMessage();
        if (report.outcome() == ReconcileOutcome.TIMEOUT) {
            message = "timed out after " + reconcileTimeout.toMillis() + " ms and was interrupted"
                    + (message == null ? "" : ": " + message);
        }
        recentErrors.add(new ControllerStatus.RecentError(report.key(), report.outcome(),
                error == null ? null : error.getClass().getName(), message, clock.instant(), report.attempt()));
    }

    /** How many processed keys ended with {@code outcome} since start. */
    long count(ReconcileOutcome outcome) {
        return counts.get(outcome).sum();
    }

    /** How many processed keys ended with each outcome since start. */
    Map<ReconcileOutcome, Long> counts() {
        Map<ReconcileOutcome, Long> snapshot = new EnumMap<>(ReconcileOutcome.class);
        counts.forEach((outcome, count) -> snapshot.put(outcome, count.sum()));
        return snapshot;
    }

    /** Keys being reconciled. Cheap. */
    int inFlightCount() {
        return inFlight.size();
    }

    /** The keys being reconciled, longest-running first. */
    List<ControllerStatus.InFlight> inFlight() {
        long now = System.nanoTime();
        return inFlight.entrySet().stream()
                .map(entry -> new ControllerStatus.InFlight(entry.getKey(), entry.getValue().since(),
                        Duration.ofNanos(Math.max(0, now - entry.getValue().startNanos()))))
                .sorted(Comparator.comparing(ControllerStatus.InFlight::age).reversed())
                .toList();
    }

    /** The last failed reconciles, newest first. */
    List<ControllerStatus.RecentError> recentErrors() {
        return recentErrors.snapshot();
    }

    /** When a reconcile last ended without an error; null if none has. */
    Instant lastSuccess() {
        return lastSuccess;
    }

    /** A key being reconciled: when it started, by the monotonic clock and by the wall clock. */
    private record Running(long startNanos, Instant since) {
    }
}
