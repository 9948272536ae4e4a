package dev.kubeloop.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.kubeloop.metrics.WebhookMetrics;
import dev.kubeloop.testing.CapturedLogs;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * A webhook server that is stopped and started again (readiness tests do it; so may a lifecycle
 * restart) reports its transport stats to the metrics once more: the gauges registered at its first
 * start keep reading the same stats, and nothing is registered twice.
 */
class WebhookServerRestartMetricsTest {

    @Test
    void theTransportGaugesOfARestartedServerAreRegisteredOnceAndKeepReadingItsStats() {
        MeterRegistry registry = new SimpleMeterRegistry();
        WebhookMetrics metrics = new WebhookMetrics(registry);
        WebhookServerStats stats = new WebhookServerStats();

        // Micrometer warns of a double registration once per JVM, then logs it at DEBUG: capture both
        try (CapturedLogs logs = CapturedLogs.of(MeterRegistry.class, Level.DEBUG)) {
            metrics.transport(stats);
            metrics.transport(stats); // the restart

            assertThat(logs.events(Level.DEBUG, "has been already registered")).isEmpty();
        }
        assertThat(registry.find(WebhookMetrics.CONNECTIONS).gauges()).hasSize(1);
        stats.connectionOpened();
        assertThat(registry.get(WebhookMetrics.CONNECTIONS).gauge().value()).isEqualTo(1);
    }
}
