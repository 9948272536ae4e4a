package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.WorkQueueListener;

/**
 * Receives the events of one controller: its work queue's (inherited from
 * {@link WorkQueueListener}, called under the queue's lock) and its workers'. Returned by
 * {@link ControllerObserver#controllerRegistered}.
 *
 * <p>Threading: called from the controller's worker threads and, for queue events, from whichever
 * thread touched the queue (informer threads, timers, workers). Implementations must be
 * thread-safe, fast and must never block or call back into the controller.
 */
public interface ControllerListener extends WorkQueueListener {

    /** A listener that ignores everything. */
    ControllerListener NOOP = new ControllerListener() {
    };

    /** A worker took {@code key} from the queue and is about to reconcile it. */
    default void reconcileStarted(ObjectKey key) {
    }

    /** A worker finished processing a key; called before the key is requeued or forgotten. */
    default void reconcileFinished(ReconcileReport report) {
    }

    /**
     * A worker thread ended with an error that escaped its loop (the runtime catches everything a
     * reconciler throws, so this is an {@link Error} in the runtime or an observer). The controller
     * now runs with fewer workers than configured: the runtime is broken.
     */
    default void workerDied(Throwable error) {
    }
}
