package dev.kubeloop.autoconfigure.controller;

import dev.kubeloop.autoconfigure.ApplicationExit;
import java.util.function.IntConsumer;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

/**
 * {@code kubeloop.exit-when-ready}: once the application is ready (its caches synced, its workers
 * started), closes the context and ends the JVM with its exit code ({@link ApplicationExit}). A
 * training run for the JVM's ahead-of-time cache (Java 25: {@code -XX:AOTCacheOutput}) or a CDS
 * archive ({@code -XX:ArchiveClassesAtExit}) made this way covers what start-up does up to ready:
 * the served-CRD check, the informers' first lists and watches, the web server.
 * {@code spring.context.exit=onRefresh} stops before any of that is started. The JVM exit is
 * injected so tests can run it. Stateless.
 */
record ExitWhenReady(KubeloopProperties properties, IntConsumer jvmExit)
        implements ApplicationListener<ApplicationReadyEvent> {

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        if (properties.isExitWhenReady()) {
            ApplicationExit.exit(event.getApplicationContext(), false,
                    "once ready: kubeloop.exit-when-ready is true (a training run)", jvmExit);
        }
    }
}
