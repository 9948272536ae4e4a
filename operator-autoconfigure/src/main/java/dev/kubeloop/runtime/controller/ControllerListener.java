package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.WorkQueueListener;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;

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
     * The controller wrote an object through a reconcile context or its finalizer, or found the
     * write unnecessary and sent nothing ({@code skipped}).
     */
    default void written(WriteOperation operation, boolean skipped) {
    }

    /**
     * A read found the cache older than the controller's own last write of the object: it read the
     * write instead ({@code avoided}), or, with read-your-writes off, the stale cached object.
     */
    default void staleRead(boolean avoided) {
    }

    /** An informer delivered the version a write of the controller returned, {@code lag} after the response. */
    default void cacheCaughtUp(Duration lag) {
    }

    /**
     * The controller has taken in an informer event of {@code object} (the new version; the last
     * one for a delete): queued what it asks for, dropped it as the echo of its own write, or holds
     * it until the write of the object on its way ends (its key is in flight meanwhile). Called on
     * the informer's thread, after the event's key, if any, is in the queue: a test waiting for the
     * controller to have seen an object (the test kit's {@code awaitIdle}) learns it here.
     */
    default void eventTakenIn(HasMetadata object, boolean delete) {
    }

    /**
     * A reconcile deleted {@code object} (pruning or {@code context.delete}), and the API server
     * took it, though its kind is not in the reconciler's {@code @Reconciler(deletes)}: the RBAC
     * generated from the code would refuse it in a cluster. Called on every such delete (the WARN
     * line is logged once per kind); {@code advice} names the controller, the kind and the fix.
     */
    default void undeclaredDelete(HasMetadata object, String advice) {
    }

    /**
     * A worker thread ended with an error that escaped its loop (the runtime catches everything a
     * reconciler throws, so this is an {@link Error} in the runtime or an observer). The controller
     * now runs with fewer workers than configured: the runtime is broken.
     */
    default void workerDied(Throwable error) {
    }
}
