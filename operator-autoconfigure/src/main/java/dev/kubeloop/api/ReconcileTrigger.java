package dev.kubeloop.api;

/**
 * Queues reconciles of one reconciler from outside Kubernetes: a Spring {@code @EventListener}, a
 * message listener, a scheduled task, a webhook from a Git host (controller-runtime's channel
 * source). The key is reconciled like after a change of its object: deduplicated with other
 * events, never concurrently with itself, on the latest cached object. Get one from
 * {@link ReconcileTriggers}. Thread-safe; cheap (one queue add).
 */
public interface ReconcileTrigger {

    /** The priority of changes: the default. */
    int NORMAL_PRIORITY = 0;
    /** The priority of the initial list and resyncs: behind every change. */
    int LOW_PRIORITY = -100;
    /** A priority ahead of every change, for a user waiting on the result. */
    int HIGH_PRIORITY = 100;

    /** The reconciler's name. */
    String reconciler();

    /**
     * Whether {@code key} names an object this reconciler reconciles here: in a namespace it
     * watches, and in its cache now (sharded: in this replica's share). A trigger that takes keys
     * from outside (an HTTP request, a message) checks this first and refuses other keys, so that
     * nobody can queue work for objects the operator does not serve. Cheap (a cache lookup).
     */
    boolean reconciles(ObjectKey key);

    /**
     * Queues a reconcile of {@code key} at {@link #NORMAL_PRIORITY}.
     *
     * @return false if the reconciler is shutting down and nothing was queued
     */
    default boolean enqueue(ObjectKey key) {
        return enqueue(key, NORMAL_PRIORITY);
    }

    /**
     * Queues a reconcile of {@code key} at {@code priority} (higher first; a key already queued
     * keeps the higher of its two priorities).
     *
     * @return false if the reconciler is shutting down and nothing was queued
     */
    boolean enqueue(ObjectKey key, int priority);
}
