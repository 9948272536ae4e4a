package dev.kubeloop.runtime.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Decides, at the start of every reconcile, whether this replica may reconcile a primary now, and
 * hears when that reconcile (and its writes) ended. With sharding it admits a primary only while
 * this replica holds the primary's bucket, and it is how a replica that gives a bucket away knows
 * that nothing of the bucket is still running: a handoff closes the bucket, then waits for its
 * permits to be returned. Without sharding every primary is admitted ({@link #OPEN}).
 *
 * <p>A primary that is not admitted is not this replica's: the runtime treats it as it treats an
 * object that is not in the cache ({@link ReconcileOutcome#GONE}: nothing is called, the key is
 * forgotten); the replica that holds it reconciles it.
 *
 * <p>Implementations are thread-safe and fast: every worker calls them for every key.
 */
@FunctionalInterface
public interface ReconcileFence {

    /** Admits everything: the fence of a replica that is not sharded. */
    ReconcileFence OPEN = primary -> Permit.NONE;

    /**
     * A permit to reconcile {@code primary} now, or null if this replica must not. The caller
     * closes the permit when the reconcile, its writes included, has ended, in a {@code finally}.
     */
    Permit enter(HasMetadata primary);

    /** One admitted reconcile; closing it twice is harmless. */
    @FunctionalInterface
    interface Permit extends AutoCloseable {

        /** The permit of a fence that tracks nothing. */
        Permit NONE = () -> {
        };

        /**
         * Whether a write of this reconcile may still leave now: this replica still holds what
         * admitted it (its Lease, its bucket), judged on the monotonic clock from its last
         * successful renewal, never from a flag a timer sets (a paused replica's timers are as late
         * as its workers). Checked immediately before each write request leaves; fast, thread-safe.
         */
        default boolean holds() {
            return true;
        }

        @Override
        void close();
    }
}
