package dev.kubeloop.runtime.manager;

import java.time.Instant;
import java.util.Objects;

/**
 * Whether this replica acts, as its {@link WorkGate} sees it: what health, metrics and the
 * actuator endpoint report about leader election. A snapshot; immutable.
 *
 * @param enabled whether leader election is on; when off, every replica acts ({@link Role#LEADER})
 * @param role what this replica does now
 * @param identity this replica's identity in the Lease; null when leader election is off
 * @param leaseNamespace the Lease's namespace; null when leader election is off
 * @param leaseName the Lease's name; null when leader election is off
 * @param holder the holder of the Lease as last observed (this replica's identity when leading);
 *     null when nobody holds it, it is not known yet, or leader election is off
 * @param since when {@code role} last changed; null when leader election is off
 */
public record LeadershipState(boolean enabled, Role role, String identity, String leaseNamespace, String leaseName,
        String holder, Instant since) {

    /** The state when leader election is off: every replica is a leader. */
    public static final LeadershipState NOT_ELECTED = new LeadershipState(false, Role.LEADER, null, null, null, null,
            null);

    /** What a replica does. */
    public enum Role {
        /** Holds the Lease (or leader election is off): its workers take work. */
        LEADER,
        /** Caches synced and ready, workers idle, waiting to acquire the Lease. */
        STANDBY,
        /**
         * Lost the Lease and is exiting so that Kubernetes restarts it
         * ({@code kubeloop.leader-election.on-lost=exit}): liveness should report it broken.
         */
        LOST
    }

    public LeadershipState {
        Objects.requireNonNull(role, "role");
    }

    /** True while this replica's workers may take work. */
    public boolean isLeader() {
        return role == Role.LEADER;
    }

    /** The same state with another role, changed at {@code at}. */
    public LeadershipState withRole(Role newRole, Instant at) {
        return new LeadershipState(enabled, newRole, identity, leaseNamespace, leaseName, holder, at);
    }

    /** The same state with another observed holder. */
    public LeadershipState withHolder(String newHolder) {
        return new LeadershipState(enabled, role, identity, leaseNamespace, leaseName, newHolder, since);
    }
}
