package dev.kubeloop.leader;

/** What a replica does when it loses the Lease while it was leading (not when it releases it at shutdown). */
public enum OnLost {

    /**
     * Stop the workers, then hand over to the {@link LeadershipLostHandler}, which exits the
     * application with a non-zero code so that Kubernetes restarts it clean (controller-runtime's
     * behaviour). The default: whatever a reconcile was doing when the Lease went is cut short, and
     * a fresh process is the safest way to start over.
     */
    EXIT,

    /** Stop the workers and stand by again: keep the caches warm and try to acquire the Lease anew. */
    STANDBY
}
