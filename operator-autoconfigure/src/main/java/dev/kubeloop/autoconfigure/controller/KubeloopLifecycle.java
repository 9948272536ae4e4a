package dev.kubeloop.autoconfigure.controller;

import dev.kubeloop.runtime.manager.ControllerManager;
import org.springframework.context.ApplicationStartupAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;

/**
 * Starts and stops the {@link ControllerManager} with the application context.
 *
 * <p>Phase {@link #PHASE} is above the web server's ({@code WebServerStartStopLifecycle},
 * {@code DEFAULT_PHASE - 2048}) and graceful shutdown's ({@code DEFAULT_PHASE - 1024}): the
 * controllers start after the web server is up (so health and metrics answer while the caches
 * sync) and stop before graceful shutdown begins, so reconciles in flight drain while probes and
 * metrics are still served. A start failure (a missing CRD, caches that do not sync) fails the
 * context refresh.
 *
 * <p>The caches began starting when the manager bean was created (see
 * {@link KubeloopAutoConfiguration}); start waits for the served-CRD check and the first lists,
 * then opens the work gate. The wait is the {@code kubeloop.manager.start} step of the
 * application's {@link ApplicationStartup} (for example {@code /actuator/startup}).
 *
 * <p>With leader election, start leaves this replica standing by (caches synced, ready) and stop
 * releases the Lease once reconciles in flight have drained, before the informers stop; the
 * manager orders both (see {@code ControllerManager} and {@code WorkGate}).
 *
 * <p>Stop is synchronous and takes up to {@code kubeloop.shutdown-timeout}; keep
 * {@code spring.lifecycle.timeout-per-shutdown-phase} above it. Thread-safe: Spring calls start
 * and stop from one thread at a time; {@code running} is volatile for {@link #isRunning()}.
 */
public final class KubeloopLifecycle implements SmartLifecycle, ApplicationStartupAware {

    /** The phase of the controller manager; the webhook server starts before it and stops after. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

    private final ControllerManager manager;
    private ApplicationStartup applicationStartup = ApplicationStartup.DEFAULT;
    private volatile boolean running;

    KubeloopLifecycle(ControllerManager manager) {
        this.manager = manager;
    }

    @Override
    public void setApplicationStartup(ApplicationStartup applicationStartup) {
        this.applicationStartup = applicationStartup;
    }

    @Override
    public void start() {
        StartupStep step = applicationStartup.start("kubeloop.manager.start")
                .tag("controllers", String.valueOf(manager.controllers().size()));
        try {
            manager.start();
        } finally {
            step.end();
        }
        running = true;
    }

    @Override
    public void stop() {
        try {
            manager.stop();
        } finally {
            running = false;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
