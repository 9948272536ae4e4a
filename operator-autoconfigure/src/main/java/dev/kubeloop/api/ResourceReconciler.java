package dev.kubeloop.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Optional;

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
 * <p>A reconciler that reports its failures in the object's status overrides {@link #errorStatus}
 * instead of catching, writing and rethrowing in {@code reconcile}.
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

    /**
     * The status that says {@code reconcile} failed with {@code error}, or empty (the default) to
     * write nothing: JOSDK's {@code updateErrorStatus}. The runtime applies the returned object's
     * status as {@link ReconcileContext#applyStatus} does (server-side apply on {@code /status},
     * locked on the version the reconcile knew), then retries the key as the error says.
     *
     * <p>Called once per distinct error, not per retry: again only when the error's class or
     * message changes, or the object's generation does; a reconcile that succeeds starts afresh.
     * Not called for an object being deleted, for a 409 conflict (a stale cache, retried quietly),
     * nor when the reconciler threw an {@link Error}. What it throws is logged and changes nothing
     * else: the key is retried as the reconcile's own error says.
     *
     * @param resource a private copy of the object, as the failed reconcile last wrote or read it:
     *     set its status and return it
     * @param context the failed reconcile's context
     * @param error what {@code reconcile} threw
     */
    default Optional<T> errorStatus(T resource, ReconcileContext<T> context, Exception error) throws Exception {
        return Optional.empty();
    }
}
