package dev.kubeloop.health;

import dev.kubeloop.webhook.WebhookServer;
import dev.kubeloop.webhook.WebhookServerStats;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The {@code webhook} health contributor, which the auto-configuration adds to the readiness group:
 * with {@code failurePolicy: Fail}, a replica whose webhook server does not answer blocks every
 * create and update of its kinds, so it must not receive them (the webhook Service routes only to
 * ready pods).
 * <ul>
 *   <li><b>OUT_OF_SERVICE</b>: not listening (not started yet, or stopped);
 *   <li><b>DOWN</b>: listening with an expired certificate: the API server's TLS handshakes fail
 *       (a renewal that never arrived; see the certificate's Secret and cert-manager);
 *   <li><b>DOWN</b>: wedged: a request has waited for a webhook thread longer than
 *       {@value #WEDGED_AFTER_SECONDS} s (the API server's default webhook timeout: it has given
 *       up on it), every thread busy in a validator, defaulter or converter that does not return;
 *   <li><b>UP</b>: listening with a valid certificate.
 * </ul>
 * Details: address, port, paths, the certificate's expiry (never its contents), open connections,
 * TLS handshakes in progress, requests waiting for a thread and the oldest one's wait.
 * Thread-safe: it reads the server's volatile state and atomics.
 */
public final class WebhookHealthIndicator implements HealthIndicator {

    static final long WEDGED_AFTER_SECONDS = 10;

    private final WebhookServer server;
    private final Clock clock;
    private final Duration wedgedAfter;

    public WebhookHealthIndicator(WebhookServer server) {
        this(server, Clock.systemUTC(), Duration.ofSeconds(WEDGED_AFTER_SECONDS));
    }

    WebhookHealthIndicator(WebhookServer server, Clock clock, Duration wedgedAfter) {
        this.server = Objects.requireNonNull(server, "server");
        this.clock = clock;
        this.wedgedAfter = wedgedAfter;
    }

    @Override
    public Health health() {
        Instant notAfter = server.tls().notAfter();
        WebhookServerStats stats = server.stats();
        Health.Builder health;
        if (!server.isRunning()) {
            health = Health.status(Status.OUT_OF_SERVICE).withDetail("reason", "not listening");
        } else if (!clock.instant().isBefore(notAfter)) {
            health = Health.down().withDetail("reason", "the certificate expired");
        } else if (stats.oldestWait().compareTo(wedgedAfter) > 0) {
            health = Health.down().withDetail("reason", "a request has waited " + stats.oldestWait().toSeconds()
                    + " s for a webhook thread: every one is busy in a validator, defaulter or converter");
        } else {
            health = Health.up();
        }
        return health.withDetail("address", server.address().getHostAddress())
                .withDetail("port", server.isRunning() ? server.port() : server.requestedPort())
                .withDetail("paths", server.paths())
                .withDetail("certificateNotAfter", notAfter.toString())
                .withDetail("connections", stats.connections())
                .withDetail("tlsHandshakesInProgress", stats.handshakesInProgress())
                .withDetail("requestsWaiting", stats.requestsWaiting())
                .withDetail("oldestWaitSeconds", stats.oldestWait().toMillis() / 1000.0)
                .build();
    }
}
