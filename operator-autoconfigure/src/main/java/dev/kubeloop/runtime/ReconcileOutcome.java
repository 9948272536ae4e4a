package dev.kubeloop.runtime;

/**
 * How one processed key ended, as counted by {@link Controller#count(ReconcileOutcome)} and mapped
 * onto the work queue by the controller.
 */
public enum ReconcileOutcome {

    /** The object was no longer in the cache: nothing was called, the key was forgotten. */
    GONE,
    /** {@code Result.done()}: the key's backoff was reset. */
    SUCCESS,
    /** {@code Result.requeue()}: queued again with the key's backoff. */
    REQUEUE,
    /** {@code Result.requeueAfter(d)}: backoff reset, queued again after {@code d}. */
    REQUEUE_AFTER,
    /** An exception: queued again with the key's backoff, forever. */
    ERROR,
    /** A {@code TerminalException}: recorded, forgotten, not retried until the object changes. */
    TERMINAL_ERROR,
    /** HTTP 409 from the API server: the cache was stale; queued again quietly with backoff. */
    CONFLICT,
    /** The reconcile ran past its timeout and was interrupted; queued again with backoff. */
    TIMEOUT
}
