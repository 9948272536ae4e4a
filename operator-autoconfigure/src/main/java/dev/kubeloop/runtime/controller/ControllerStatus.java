package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.WorkQueueStats;
import dev.kubeloop.runtime.cache.InformerStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A snapshot of one controller at work, taken by {@link Controller#status()} for health checks
 * and introspection. Each part is read consistently on its own (the queue under its lock, the
 * recent errors under theirs), not all parts at one instant. Immutable.
 *
 * @param name the controller's name
 * @param started whether its workers were started (and not stopped since)
 * @param maxWorkers the configured number of workers (controller-runtime's max concurrent reconciles)
 * @param activeWorkers workers reconciling a key right now
 * @param aliveWorkers worker threads alive (they end at shutdown; one that died is reported in
 *     {@code workerFailure})
 * @param queue the work queue's gauges, depth by priority included
 * @param inFlight the keys being reconciled right now, oldest first
 * @param recentErrors the last failed reconciles, newest first (bounded; see
 *     {@link ControllerManager.Builder#recentErrors})
 * @param lastSuccess when a reconcile last ended without an error; null if none has yet
 * @param outcomes how many processed keys ended with each outcome since start
 * @param informers the informers this controller reads: the primary type's first, then owned types'
 * @param workerFailure why a worker died, if one did; null otherwise
 * @param writes what its writes and read-your-writes did
 */
public record ControllerStatus(String name, boolean started, int maxWorkers, int activeWorkers, int aliveWorkers,
        WorkQueueStats queue, List<InFlight> inFlight, List<RecentError> recentErrors, Instant lastSuccess,
        Map<ReconcileOutcome, Long> outcomes, List<InformerStatus> informers, String workerFailure, Writes writes) {

    public ControllerStatus {
        inFlight = List.copyOf(inFlight);
        recentErrors = List.copyOf(recentErrors);
        outcomes = Map.copyOf(outcomes);
        informers = List.copyOf(informers);
    }

    /**
     * True once every informer this controller reads has completed its first list; an optional
     * type's informer waiting for its type counts as synced (its cache is empty by design).
     */
    public boolean synced() {
        return informers.stream().allMatch(InformerStatus::ready);
    }

    /** True if a worker died or an informer stopped for good: the controller cannot do its job any more. */
    public boolean broken() {
        return workerFailure != null || informers.stream().anyMatch(InformerStatus::failed);
    }

    /**
     * A key being reconciled.
     *
     * @param key the key
     * @param since when its reconcile started
     * @param age how long it has been running when the snapshot was taken
     */
    public record InFlight(ObjectKey key, Instant since, Duration age) {
    }

    /**
     * One failed reconcile.
     *
     * @param key the key
     * @param outcome {@code ERROR}, {@code TERMINAL_ERROR}, {@code CONFLICT} or {@code TIMEOUT}
     * @param error the exception's class name
     * @param message the exception's message (may be null)
     * @param time when the reconcile ended
     * @param attempt the attempt number: 1 for the first try, then one more per rate-limited requeue
     */
    public record RecentError(ObjectKey key, ReconcileOutcome outcome, String error, String message, Instant time,
            int attempt) {
    }

    /**
     * The writes of one controller since start.
     *
     * @param sent requests sent, by operation
     * @param skipped writes not sent because the object already was as desired (apply, applyStatus)
     * @param staleReadsAvoided reads (a reconcile's primary, a cached object) that got the
     *     controller's own newer write instead of an older cached object
     * @param staleReadsNotAvoided the same situations with read-your-writes switched off
     * @param pending writes the informers have not delivered yet
     * @param cacheCatchUps writes the informers delivered (each one's lag is measured)
     * @param lastCacheLag the lag of the last one: from the write's response to the informer's event
     * @param maxCacheLag the longest lag since start
     */
    public record Writes(Map<WriteOperation, Long> sent, Map<WriteOperation, Long> skipped, long staleReadsAvoided,
            long staleReadsNotAvoided, int pending, long cacheCatchUps, Duration lastCacheLag, Duration maxCacheLag) {

        public Writes {
            sent = Map.copyOf(sent);
            skipped = Map.copyOf(skipped);
        }
    }
}
