package dev.kubeloop.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeloop.api.webhook.Admission;
import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.Validator;
import dev.kubeloop.metrics.WebhookMetrics;
import dev.kubeloop.testing.TestCertificate;
import dev.kubeloop.webhook.ServerTls;
import dev.kubeloop.webhook.WebhookServer;
import dev.kubeloop.webhook.Webhooks;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;

/**
 * A webhook server wedged by a validator that never returns is DOWN, with the reason; its
 * transport shows in the health details and the {@code kubeloop_webhook_*} metrics.
 */
class WebhookHealthIndicatorTest {

    private final TestCertificate certificate = TestCertificate.create(Duration.ofHours(1));
    private final CountDownLatch release = new CountDownLatch(1);
    private WebhookServer server;

    @AfterEach
    void stop() {
        release.countDown();
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    @Test
    @SuppressWarnings("try") // the socket is held open, mid-handshake, for the check
    void aServerWhoseThreadsAreAllStuckIsDownAndSaysWhy() throws Exception {
        Validator<ConfigMap> stuck = new Validator<>() {
            @Override
            public Admission validateCreate(ConfigMap object, AdmissionContext context) {
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Admission.allowed();
            }
        };
        Webhooks webhooks = Webhooks.builder(new KubernetesSerialization(new ObjectMapper(), true))
                .validator(ConfigMap.class, stuck).build();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        server = WebhookServer.builder(webhooks, ServerTls.of(certificate.keyManager(), certificate.certificate(),
                "TLS", null, null)).address(InetAddress.getLoopbackAddress()).port(0).threads(1)
                .observer(new WebhookMetrics(registry)).build();
        server.start();
        WebhookHealthIndicator indicator = new WebhookHealthIndicator(server, Clock.systemUTC(), Duration.ZERO);
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);

        HttpClient client = HttpClient.newBuilder().sslContext(certificate.trustingContext()).build();
        for (int i = 0; i < 2; i++) { // one in the validator, one waiting for the only thread
            client.sendAsync(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port()
                    + webhooks.all().get(0).path())).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(review(i))).build(), HttpResponse.BodyHandlers.ofString());
        }
        try (Socket handshaking = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> server.stats().requestsWaiting() == 1
                    && server.stats().handshakesInProgress() == 1);

            var health = indicator.health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails().get("reason").toString()).contains("for a webhook thread");
            assertThat(health.getDetails()).containsEntry("requestsWaiting", 1)
                    .containsEntry("tlsHandshakesInProgress", 1);
            assertThat(registry.get(WebhookMetrics.WAITING).gauge().value()).isEqualTo(1);
            assertThat(registry.get(WebhookMetrics.HANDSHAKES).gauge().value()).isEqualTo(1);
            assertThat(registry.get(WebhookMetrics.CONNECTIONS).gauge().value()).isEqualTo(3);
            assertThat(registry.get(WebhookMetrics.CLOSED).tag("reason", "handshake_timeout").functionCounter()
                    .count()).isZero();
        }
        release.countDown();
        await().atMost(Duration.ofSeconds(30)).until(() -> server.stats().requestsWaiting() == 0);
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
    }

    private static String review(int i) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u" + i
                + "\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"ConfigMap\"},\"resource\":{\"group\":\"\","
                + "\"version\":\"v1\",\"resource\":\"configmaps\"},\"operation\":\"CREATE\",\"name\":\"c\","
                + "\"namespace\":\"n\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\","
                + "\"namespace\":\"n\"}}}}";
    }
}
