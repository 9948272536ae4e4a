package dev.kubeloop.autoconfigure.leader;

import dev.kubeloop.leader.LeadershipLostHandler;
import dev.kubeloop.runtime.manager.LeadershipState;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.context.ApplicationContext;

/**
 * The default {@link LeadershipLostHandler} ({@code kubeloop.leader-election.on-lost=exit}), doing
 * what controller-runtime does the Spring way: marks liveness {@link LivenessState#BROKEN} (so the
 * kubelet restarts the pod even if the exit hangs), closes the context with
 * {@link SpringApplication#exit} (graceful shutdown: the rest of the application stops cleanly),
 * then ends the JVM with a non-zero code. The JVM exit is injected so tests can run it.
 */
final class ExitOnLostLeadership implements LeadershipLostHandler {

    private static final Logger log = LoggerFactory.getLogger(ExitOnLostLeadership.class);

    private final ApplicationContext context;
    private final IntConsumer jvmExit;

    ExitOnLostLeadership(ApplicationContext context, IntConsumer jvmExit) {
        this.context = context;
        this.jvmExit = jvmExit;
    }

    @Override
    public void leadershipLost(LeadershipState state) {
        AvailabilityChangeEvent.publish(context, LivenessState.BROKEN);
        int code = SpringApplication.exit(context, () -> 1);
        log.info("Exiting with code {} after losing the Lease {}/{}", code == 0 ? 1 : code, state.leaseNamespace(),
                state.leaseName());
        jvmExit.accept(code == 0 ? 1 : code);
    }
}
