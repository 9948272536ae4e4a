package dev.kubeloop.autoconfigure;

import dev.kubeloop.runtime.manager.ControllerManager;
import org.springframework.context.SmartLifecycle;

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
 * <p>With leader election, start leaves this replica standing by (caches synced, ready) and stop
 * releases the Lease once reconciles in flight have drained, before the informers stop; the
 * manager orders both (see {@code ControllerManager} and {@code WorkGate}).
 *
 * <p>Stop is synchronous and takes up to {@code kubeloop.shutdown-timeout}; keep
 * {@code spring.lifecycle.timeout-per-shutdown-phase} above it. Thread-safe: Spring calls start
 * and stop from one thread at a time; {@code running} is volatile for {@link #isRunning()}.
 */
final class KubeloopLifecycle implements SmartLifecycle {

    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

    private final ControllerManager manager;
    private volatile boolean running;

    KubeloopLifecycle(ControllerManager manager) {
        this.manager = manager;
    }

    @Override
    public void start() {
        manager.start();
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
