package dev.kubeloop.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Implemented, next to {@link ResourceReconciler}, by a reconciler that must release something
 * Kubernetes' garbage collection does not (a cloud resource, a row in a database, an entry in a
 * shared object) before its object may go. It is the explicit opt-in to a finalizer: the runtime
 * adds one ({@link Reconciler#finalizer()}, by default {@code <name>.kubeloop.dev/finalizer})
 * before the first {@code reconcile}, calls {@link #cleanup} once the object is being deleted,
 * and removes the finalizer only after cleanup returned {@link Result#done()}.
 *
 * <p>Objects the reconciler owns through controller owner references need no cleanup: Kubernetes
 * deletes them. Like {@code reconcile}, cleanup must be idempotent: if removing the finalizer
 * fails (a conflict, say), it runs again. An exception or {@link Result#requeue()} keeps the
 * finalizer and retries with backoff; a {@link TerminalException} keeps it too, until the object
 * changes.
 *
 * <pre>{@code
 * @Reconciler
 * class BucketReconciler implements ResourceReconciler<Bucket>, Cleaner<Bucket> {
 *     public Result reconcile(Bucket bucket, ReconcileContext<Bucket> context) { ... }
 *     public Result cleanup(Bucket bucket, ReconcileContext<Bucket> context) {
 *         storage.deleteBucket(bucket.getSpec().getName()); // idempotent
 *         return Result.done();
 *     }
 * }
 * }</pre>
 *
 * @param <T> the primary resource type, the same as the reconciler's
 */
public interface Cleaner<T extends HasMetadata> {

    /**
     * Releases what {@code resource} holds outside the cluster; called while it is being deleted
     * (its deletion timestamp is set) and carries this reconciler's finalizer.
     *
     * @param resource a private copy of the latest cached object
     * @return {@link Result#done()} to let the object go; anything else keeps the finalizer
     */
    Result cleanup(T resource, ReconcileContext<T> context) throws Exception;
}
