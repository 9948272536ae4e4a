package dev.kubeloop.webhook;

import dev.kubeloop.runtime.Tracing;
import java.time.Duration;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * What every connection of one running server shares: the routes, the observer, the webhook
 * threads, the body budget, the connection limit, the counters and the timeouts. Built by
 * {@link WebhookServer#start}, dropped by its stop; {@code draining} is set once when the server
 * stops, after which every answer closes its connection.
 */
final class ServerParts {

    final WebhookHttpHandler handler;
    final WebhookObserver observer;
    final ThreadPoolExecutor workers;
    final BodyBudget budget;
    final ConnectionLimit limit;
    final WebhookServerStats stats;
    final InFlight inFlight;
    final Duration idleTimeout;
    final Duration requestTimeout;
    /** Traces each request while its webhook runs ({@link Tracing#OFF}: nothing). */
    final Tracing tracing;
    volatile boolean draining;

    ServerParts(WebhookHttpHandler handler, WebhookObserver observer, ThreadPoolExecutor workers, BodyBudget budget,
            ConnectionLimit limit, WebhookServerStats stats, InFlight inFlight, Duration idleTimeout,
            Duration requestTimeout, Tracing tracing) {
        this.handler = handler;
        this.observer = observer;
        this.workers = workers;
        this.budget = budget;
        this.limit = limit;
        this.stats = stats;
        this.inFlight = inFlight;
        this.idleTimeout = idleTimeout;
        this.requestTimeout = requestTimeout;
        this.tracing = tracing;
    }
}
