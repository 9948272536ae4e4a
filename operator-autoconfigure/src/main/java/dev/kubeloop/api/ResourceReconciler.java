package dev.kubeloop.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Drives the actual state of one object of type {@code T} towards the state its spec declares.
 *
 * <p>Level-triggered: {@link #reconcile} receives the latest cached object, not the event that
 * caused the call, and must be idempotent. It receives a private copy, so it may modify it (set
 * the status, then {@link ReconcileContext#updateStatus}) without touching the shared cache. The runtime never calls it concurrently for the same
 * object, but does call it concurrently for different objects when the reconciler has more than
 * one worker, so implementations must be thread-safe.
 *
 * @param <T> the primary resource type
 */
public interface ResourceReconciler<T extends HasMetadata> {

    /**
     * Reconciles one object that exists and is not being deleted.
     *
     * @return what to do next; an exception means a rate-limited retry, a {@link TerminalException}
     *     means no retry
     */
    Result reconcile(T resource, ReconcileContext<T> context) throws Exception;

    /**
     * Releases what the object holds outside Kubernetes' garbage collection, once it is being
     * deleted. Implementing this method (or naming a finalizer in {@link Reconciler#finalizer()})
     * makes the runtime add a finalizer before the first {@link #reconcile} and remove it only
     * after this method returns {@link Result#done()}. Owned objects with owner references need no
     * cleanup: Kubernetes deletes them. Like {@link #reconcile}, it must be idempotent: if removing
     * the finalizer fails (say, on a conflict), cleanup runs again.
     */
    default Result cleanup(T resource, ReconcileContext<T> context) throws Exception {
        return Result.done();
    }
}
