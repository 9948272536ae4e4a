package dev.kubeloop.autoconfigure.controller;

import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code kubeloop.exit-when-ready}: once the application is ready (its caches synced, its workers
 * started), closes the context with {@link SpringApplication#exit} and ends the JVM with its exit
 * code. A training run for the JVM's ahead-of-time cache (Java 25: {@code -XX:AOTCacheOutput}) or a
 * CDS archive ({@code -XX:ArchiveClassesAtExit}) made this way covers what start-up does up to
 * ready: the served-CRD check, the informers' first lists and watches, the web server.
 * {@code spring.context.exit=onRefresh} stops before any of that is started. The JVM exit is
 * injected so tests can run it. Stateless.
 */
final class ExitWhenReady implements ApplicationListener<ApplicationReadyEvent> {

    private static final Logger log = LoggerFactory.getLogger(ExitWhenReady.class);

    private final KubeloopProperties properties;
    private final IntConsumer jvmExit;

    ExitWhenReady(KubeloopProperties properties, IntConsumer jvmExit) {
        this.properties = properties;
        this.jvmExit = jvmExit;
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        if (!properties.isExitWhenReady()) {
            return;
        }
        ConfigurableApplicationContext context = event.getApplicationContext();
        log.info("Ready; exiting because kubeloop.exit-when-ready is true (a training run)");
        jvmExit.accept(SpringApplication.exit(context));
    }
}
