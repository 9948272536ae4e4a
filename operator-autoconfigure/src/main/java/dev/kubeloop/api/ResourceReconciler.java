package dev.kubeloop.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Drives the actual state of one object of type {@code T} towards the state its spec declares.
 *
 * <p>Level-triggered: {@link #reconcile} receives the latest cached object, not the event that
 * caused the call, and must be idempotent. It receives a private copy, so it may modify it (set
 * the status, then {@link ReconcileContext#updateStatus}) without touching the shared cache. The
 * runtime never calls it concurrently for the same object, but does call it concurrently for
 * different objects when the reconciler has more than one worker, so implementations must be
 * thread-safe.
 *
 * <p>A reconciler that must release something outside the cluster before its object goes also
 * implements {@link Cleaner}: that is what gives its objects a finalizer.
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
}
