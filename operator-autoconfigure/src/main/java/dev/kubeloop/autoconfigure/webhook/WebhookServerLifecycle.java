package dev.kubeloop.autoconfigure.webhook;

import dev.kubeloop.autoconfigure.controller.KubeloopLifecycle;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.webhook.WebhookServer;
import dev.kubeloop.webhook.WebhookSettings;
import java.io.IOException;
import java.time.Duration;
import org.springframework.context.SmartLifecycle;

/**
 * Starts and stops the {@link WebhookServer} with the application context: before the controllers
 * start (webhooks need no cache and no leadership: every replica serves them, standbys included)
 * and after they stopped, so that admission keeps working while reconciles drain. A port that
 * cannot be bound fails start-up naming the address and the property.
 *
 * <p>Thread-safety: Spring calls start and stop from one thread; the server synchronizes itself.
 */
final class WebhookServerLifecycle implements SmartLifecycle {

    /** Below the controllers' phase: started before them, stopped after them. */
    static final int PHASE = KubeloopLifecycle.PHASE - 256;

    /** How long requests in flight may finish when the server stops; the API server's own timeout is at most 30 s. */
    static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final WebhookServer server;

    WebhookServerLifecycle(WebhookServer server) {
        this.server = server;
    }

    @Override
    public void start() {
        try {
            server.start();
        } catch (IOException e) {
            String port = WebhookSettings.PORT.property();
            throw new KubeloopConfigurationException("The webhook server cannot listen on "
                    + server.address().getHostAddress() + ":" + server.requestedPort()
                    + ": " + e.getMessage() + ".", "Free the port, or set " + port + " (and "
                            + WebhookSettings.ADDRESS.property() + ") to one this process may bind.", e);
        }
    }

    @Override
    public void stop() {
        server.stop(STOP_GRACE);
    }

    @Override
    public boolean isRunning() {
        return server.isRunning();
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
