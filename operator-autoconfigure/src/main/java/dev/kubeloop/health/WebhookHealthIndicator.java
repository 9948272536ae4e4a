package dev.kubeloop.health;

import dev.kubeloop.webhook.WebhookServer;
import java.time.Clock;
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
 *   <li><b>UP</b>: listening with a valid certificate.
 * </ul>
 * Details: address, port, paths, and the certificate's expiry (never its contents). Thread-safe:
 * it reads the server's volatile state.
 */
public final class WebhookHealthIndicator implements HealthIndicator {

    private final WebhookServer server;
    private final Clock clock;

    public WebhookHealthIndicator(WebhookServer server) {
        this(server, Clock.systemUTC());
    }

    WebhookHealthIndicator(WebhookServer server, Clock clock) {
        this.server = Objects.requireNonNull(server, "server");
        this.clock = clock;
    }

    @Override
    public Health health() {
        Instant notAfter = server.tls().notAfter();
        Health.Builder health;
        if (!server.isRunning()) {
            health = Health.status(Status.OUT_OF_SERVICE).withDetail("reason", "not listening");
        } else if (!clock.instant().isBefore(notAfter)) {
            health = Health.down().withDetail("reason", "the certificate expired");
        } else {
            health = Health.up();
        }
        return health.withDetail("address", server.address().getHostAddress())
                .withDetail("port", server.isRunning() ? server.port() : server.requestedPort())
                .withDetail("paths", server.paths())
                .withDetail("certificateNotAfter", notAfter.toString())
                .build();
    }
}
