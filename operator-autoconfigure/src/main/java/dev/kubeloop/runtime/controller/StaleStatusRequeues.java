package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one reconcile the runtime queues itself: after a reconcile whose last status may describe a
 * read from before a change of its own ({@link StatusBasis}:
 * controller-runtime's order, children read, status written, children changed), where
 * controller-runtime's echo of that change would reconcile again and correct it, and Kubeloop's
 * echoes queue nothing. Never a third: a reconcile queued this way that finds its status stale
 * again (its writes change something every time) queues nothing more, so such a reconciler rests
 * where controller-runtime's echoes would never let it.
 *
 * <p>Thread-safe: each key is added and removed by the worker that holds it, and workers hold
 * different keys at once.
 */
final class StaleStatusRequeues {

    /** Keys queued once more and not reconciled since. */
    private final Set<ObjectKey> queuedOnce = ConcurrentHashMap.newKeySet();

    /** Called after every reconcile of {@code key}: whether to queue it once more, now. */
    boolean queueAgain(ObjectKey key, boolean statusMayBeStale, ReconcileOutcome outcome) {
        boolean second = queuedOnce.remove(key);
        boolean returned = outcome == ReconcileOutcome.SUCCESS || outcome == ReconcileOutcome.REQUEUE_AFTER;
        if (!statusMayBeStale || !returned || second) {
            return false;
        }
        queuedOnce.add(key);
        return true;
    }
}
