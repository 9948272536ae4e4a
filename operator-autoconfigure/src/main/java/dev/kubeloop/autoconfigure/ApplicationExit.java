package dev.kubeloop.autoconfigure;

import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ApplicationContext;

/**
 * The one way Kubeloop ends the application itself (a training run once ready, a leader that lost
 * its Lease): close the context as {@link SpringApplication#exit} does (exit code generators, then
 * the graceful shutdown, so the rest of the application stops cleanly), log the code with the
 * reason, then end the JVM with it. The JVM exit is passed in so tests can run it. Stateless.
 */
public final class ApplicationExit {

    private static final Logger log = LoggerFactory.getLogger(ApplicationExit.class);

    private ApplicationExit() {
    }

    /**
     * @param failure whether the exit reports a failure: the code is then at least 1, so that
     *     Kubernetes restarts the pod, even when no exit code generator says so
     * @param reason completes "Exiting with code N" in the log line
     * @return the code passed to {@code jvmExit}
     */
    public static int exit(ApplicationContext context, boolean failure, String reason, IntConsumer jvmExit) {
        int code = failure ? SpringApplication.exit(context, () -> 1) : SpringApplication.exit(context);
        if (failure && code == 0) {
            code = 1;
        }
        log.info("Exiting with code {} {}", code, reason);
        jvmExit.accept(code);
        return code;
    }
}
