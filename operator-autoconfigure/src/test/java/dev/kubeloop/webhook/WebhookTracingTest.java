package dev.kubeloop.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeloop.api.webhook.Admission;
import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.Validator;
import dev.kubeloop.observation.ObservationTracing;
import dev.kubeloop.observation.WebhookObservationContext;
import dev.kubeloop.runtime.Tracing;
import dev.kubeloop.testing.TestCertificate;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Webhook requests observed like reconciles: one {@code kubeloop.webhook} observation per request,
 * current while the validator runs, ended with the answer's status, offering the API server's
 * {@code traceparent} header to a tracing handler; none with tracing off.
 */
class WebhookTracingTest {

    private static final String PATH = "/validate-kubeloop-dev-v2-shelf";
    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private final TestCertificate certificate = TestCertificate.create(Duration.ofHours(1));
    private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
    private final List<String> currentInValidator = new CopyOnWriteArrayList<>();
    private final ObservationRegistry registry = ObservationRegistry.create();
    private WebhookServer server;

    private final Validator<Shelf> validator = new Validator<>() {
        @Override
        public Admission validateCreate(Shelf shelf, AdmissionContext context) {
            Observation current = registry.getCurrentObservation();
            currentInValidator.add(current == null ? "none" : current.getContext().getName());
            return shelf.getSpec().getBooks() > 10 ? Admission.denied("too many books") : Admission.allowed();
        }
    };

    private void serve(Tracing tracing) throws Exception {
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context);
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
        Webhooks webhooks = Webhooks.builder(Reviews.SERIALIZATION).validator(Shelf.class, validator).build();
        ServerTls tls = ServerTls.of(certificate.keyManager(), certificate.certificate(), "TLS", null, null);
        server = WebhookServer.builder(webhooks, tls).address(InetAddress.getLoopbackAddress()).port(0).threads(2)
                .tracing(tracing).build();
        server.start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    private HttpResponse<String> post(int books) throws Exception {
        ObjectNode request = Reviews.admissionRequest("CREATE", "v2");
        request.set("object", Reviews.tree(Shelf.named("oak", books)));
        return HttpClient.newBuilder().sslContext(certificate.trustingContext()).build().send(
                HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + PATH))
                        .header("Content-Type", "application/json").header("traceparent", TRACEPARENT)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(Reviews.admission(request))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void eachRequestIsAnObservationCurrentWhileTheValidatorRunsOfferingTheApiServersTrace() throws Exception {
        serve(new ObservationTracing(registry, Tracing.DEFAULT_ANNOTATION));

        assertThat(post(3).statusCode()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(10)).until(() -> stopped.size() == 1);
        WebhookObservationContext context = (WebhookObservationContext) stopped.get(0);
        assertThat(context.getName()).isEqualTo("kubeloop.webhook");
        assertThat(context.getContextualName()).isEqualTo("webhook " + PATH);
        assertThat(context.getLowCardinalityKeyValue("kubeloop.webhook").getValue()).isEqualTo(PATH);
        assertThat(context.getLowCardinalityKeyValue("http.response.status_code").getValue()).isEqualTo("200");
        // what a tracing handler's propagator reads to join the API server's trace
        assertThat(context.getGetter().get(context.getCarrier(), "traceparent")).isEqualTo(TRACEPARENT);
        assertThat(currentInValidator).containsExactly("kubeloop.webhook");
    }

    @Test
    void withTracingOffNothingIsObserved() throws Exception {
        serve(Tracing.OFF);

        assertThat(post(3).statusCode()).isEqualTo(200);

        assertThat(currentInValidator).containsExactly("none");
        assertThat(stopped).isEmpty();
    }
}
