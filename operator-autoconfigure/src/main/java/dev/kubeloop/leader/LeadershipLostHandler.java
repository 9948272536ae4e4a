package dev.kubeloop.leader;

import dev.kubeloop.runtime.manager.LeadershipState;

/**
 * Called once, on a thread of its own ({@code kubeloop-leader-lost}), when this replica lost the
 * Lease with {@link OnLost#EXIT}: the workers have stopped already. The Spring auto-configuration's
 * handler marks liveness broken and exits the application with code 1; plain Java applications
 * typically call {@code System.exit(1)}.
 */
@FunctionalInterface
public interface LeadershipLostHandler {

    /** @param state the state after the loss ({@code role} {@link LeadershipState.Role#LOST}) */
    void leadershipLost(LeadershipState state);
}
