package dev.kubeloop.metrics;

import dev.kubeloop.webhook.ConnectionEnd;
import dev.kubeloop.webhook.Webhook;
import dev.kubeloop.webhook.WebhookObserver;
import dev.kubeloop.webhook.WebhookServerStats;
import dev.kubeloop.webhook.WebhookType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The webhook server's metrics with controller-runtime's names, labels and buckets, per webhook
 * (tag {@code webhook}: its path, as controller-runtime labels it):
 * <ul>
 *   <li>{@code controller_runtime_webhook_requests_total{webhook,code}}: requests by HTTP status;
 *   <li>{@code controller_runtime_webhook_latency_seconds{webhook}}: a histogram with Prometheus'
 *       default buckets (controller-runtime's);
 *   <li>{@code controller_runtime_webhook_requests_in_flight{webhook}};
 *   <li>{@code controller_runtime_webhook_panics_total} and
 *       {@code controller_runtime_conversion_webhook_panics_total}: validators and defaulters, and
 *       converters, that threw (controller-runtime counts its recovered panics there, without labels).
 * </ul>
 * Registered when the server starts serving, at 0 for {@code code="200"}, so that {@code rate()}
 * works from the first scrape. Series are bounded by the number of webhooks and status codes.
 *
 * <p>And the server's transport, which controller-runtime does not measure (Go's server needs no
 * thread per connection), under {@code kubeloop_webhook_*}: open connections, TLS handshakes in
 * progress, requests waiting for a webhook thread and the oldest one's wait, and connections the
 * server closed by reason ({@link ConnectionEnd}): what shows a server under attack or wedged.
 *
 * <p>State ownership: the meters live in the registry (thread-safe); {@code inFlight}, the meter
 * caches and the set of servers whose transport is bound are concurrent collections filled once per
 * webhook, status and server.
 */
public final class WebhookMetrics implements WebhookObserver {

    /** {@code controller_runtime_webhook_requests_total{webhook,code}}. */
    public static final String REQUESTS_TOTAL = "controller_runtime_webhook_requests_total";
    /** {@code controller_runtime_webhook_latency_seconds{webhook}}, a histogram: Micrometer adds the unit. */
    public static final String LATENCY = "controller_runtime_webhook_latency";
    /** {@code controller_runtime_webhook_requests_in_flight{webhook}}. */
    public static final String IN_FLIGHT = "controller_runtime_webhook_requests_in_flight";
    /** {@code controller_runtime_webhook_panics_total}. */
    public static final String PANICS = "controller_runtime_webhook_panics_total";
    /** {@code controller_runtime_conversion_webhook_panics_total}. */
    public static final String CONVERSION_PANICS = "controller_runtime_conversion_webhook_panics_total";

    /** {@code kubeloop_webhook_connections}: open connections to the webhook server. */
    public static final String CONNECTIONS = "kubeloop_webhook_connections";
    /** {@code kubeloop_webhook_tls_handshakes_in_progress}. */
    public static final String HANDSHAKES = "kubeloop_webhook_tls_handshakes_in_progress";
    /** {@code kubeloop_webhook_requests_waiting}: requests received whole, waiting for a webhook thread. */
    public static final String WAITING = "kubeloop_webhook_requests_waiting";
    /** {@code kubeloop_webhook_oldest_wait_seconds}: how long the oldest waiting request has waited. */
    public static final String OLDEST_WAIT = "kubeloop_webhook_oldest_wait_seconds";
    /** {@code kubeloop_webhook_connections_closed_total{reason}}: connections the server closed, by reason. */
    public static final String CLOSED = "kubeloop_webhook_connections_closed_total";

    /** Prometheus' {@code DefBuckets}, which controller-runtime's latency histogram uses. */
    static final double[] LATENCY_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

    private final MeterRegistry registry;
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    private final Map<String, Timer> latency = new ConcurrentHashMap<>();
    private final Map<String, Counter> requests = new ConcurrentHashMap<>();
    private final Counter panics;
    private final Counter conversionPanics;
    /** The servers' stats whose transport gauges are registered: one entry per server, ever. */
    private final Set<WebhookServerStats> transportBound = ConcurrentHashMap.newKeySet();

    public WebhookMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.panics = Counter.builder(PANICS).description("Total number of webhook panics").register(registry);
        this.conversionPanics = Counter.builder(CONVERSION_PANICS)
                .description("Total number of conversion webhook panics").register(registry);
    }

    @Override
    public void transport(WebhookServerStats stats) {
        if (!transportBound.add(stats)) {
            // a restarted server reports its stats again: its gauges already read them (the stats outlive a
            // restart), and registering them twice would only make Micrometer warn of a double registration
            return;
        }
        Gauge.builder(CONNECTIONS, stats, WebhookServerStats::connections)
                .description("Open connections to the webhook server").strongReference(true).register(registry);
        Gauge.builder(HANDSHAKES, stats, WebhookServerStats::handshakesInProgress)
                .description("Connections whose TLS handshake has not completed").strongReference(true)
                .register(registry);
        Gauge.builder(WAITING, stats, WebhookServerStats::requestsWaiting)
                .description("Webhook requests received and waiting for a webhook thread").strongReference(true)
                .register(registry);
        Gauge.builder(OLDEST_WAIT, stats, s -> s.oldestWait().toNanos() / 1e9)
                .description("How long the oldest webhook request waiting for a thread has waited")
                .strongReference(true).register(registry);
        for (ConnectionEnd end : ConnectionEnd.values()) {
            FunctionCounter.builder(CLOSED, stats, s -> s.closed(end))
                    .description("Connections the webhook server closed, by reason").tag("reason", end.tag())
                    .register(registry);
        }
    }

    @Override
    public void serving(List<Webhook> webhooks) {
        webhooks.forEach(webhook -> {
            inFlight(webhook);
            latency(webhook);
            requests(webhook, 200);
        });
    }

    @Override
    public void requestStarted(Webhook webhook) {
        inFlight(webhook).incrementAndGet();
    }

    @Override
    public void requestFinished(Webhook webhook, int status, long nanos) {
        inFlight(webhook).decrementAndGet();
        latency(webhook).record(nanos, TimeUnit.NANOSECONDS);
        requests(webhook, status).increment();
    }

    @Override
    public void userCodeFailed(Webhook webhook, Throwable failure) {
        (webhook.type() == WebhookType.CONVERSION ? conversionPanics : panics).increment();
    }

    private AtomicInteger inFlight(Webhook webhook) {
        return inFlight.computeIfAbsent(webhook.path(), path -> {
            AtomicInteger count = new AtomicInteger();
            io.micrometer.core.instrument.Gauge.builder(IN_FLIGHT, count, AtomicInteger::get)
                    .description("Current number of admission requests being served").tag("webhook", path)
                    .register(registry);
            return count;
        });
    }

    private Timer latency(Webhook webhook) {
        return latency.computeIfAbsent(webhook.path(), path -> Timer.builder(LATENCY)
                .description("Histogram of the latency of processing admission requests").tag("webhook", path)
                .serviceLevelObjectives(buckets()).register(registry));
    }

    private Counter requests(Webhook webhook, int status) {
        return requests.computeIfAbsent(webhook.path() + " " + status, key -> Counter.builder(REQUESTS_TOTAL)
                .description("Total number of admission requests by HTTP status code").tag("webhook", webhook.path())
                .tag("code", Integer.toString(status)).register(registry));
    }

    private static Duration[] buckets() {
        Duration[] durations = new Duration[LATENCY_BUCKETS.length];
        for (int i = 0; i < durations.length; i++) {
            durations[i] = Duration.ofNanos((long) (LATENCY_BUCKETS[i] * 1_000_000_000L));
        }
        return durations;
    }
}
