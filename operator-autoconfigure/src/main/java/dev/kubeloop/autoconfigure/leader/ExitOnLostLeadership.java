package dev.kubeloop.autoconfigure.leader;

import dev.kubeloop.autoconfigure.ApplicationExit;
import dev.kubeloop.leader.LeadershipLostHandler;
import dev.kubeloop.runtime.manager.LeadershipState;
import java.util.function.IntConsumer;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.context.ApplicationContext;

/**
 * The default {@link LeadershipLostHandler} ({@code kubeloop.leader-election.on-lost=exit}), doing
 * what controller-runtime does the Spring way: marks liveness {@link LivenessState#BROKEN} (so the
 * kubelet restarts the pod even if the exit hangs), then closes the context and ends the JVM with a
 * non-zero code ({@link ApplicationExit}: graceful shutdown, the rest of the application stops
 * cleanly). The JVM exit is injected so tests can run it.
 */
record ExitOnLostLeadership(ApplicationContext context, IntConsumer jvmExit) implements LeadershipLostHandler {

    @Override
    public void leadershipLost(LeadershipState state) {
        AvailabilityChangeEvent.publish(context, LivenessState.BROKEN);
        ApplicationExit.exit(context, true,
                "after losing the Lease " + state.leaseNamespace() + "/" + state.leaseName(), jvmExit);
    }
}
