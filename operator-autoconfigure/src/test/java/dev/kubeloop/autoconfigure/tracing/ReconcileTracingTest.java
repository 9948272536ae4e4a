package dev.kubeloop.autoconfigure.tracing;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Tracing switched on as a Spring Boot application does it (Brave's module, a sampling probability),
 * against the mock API server, with the spans Brave finishes collected in memory: a reconcile's span
 * and its children, a trace joined from an object's annotation, the trace id in the MDC, and the
 * exemplars of {@code controller_runtime_reconcile_time_seconds} in the OpenMetrics output.
 */
@SpringBootTest(classes = {TracingTestApplication.class, ReconcileTracingTest.Parts.class},
        webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
            "management.tracing.sampling.probability=1.0",
            "management.tracing.export.enabled=true",
            "management.endpoints.web.exposure.include=prometheus"})
@DirtiesContext
class ReconcileTracingTest {

    /** A W3C traceparent as a client would write it into the annotation. */
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT_SPAN = "00f067aa0ba902b7";

    @TestConfiguration(proxyBeanMethods = false)
    static class Parts {
        @Bean(destroyMethod = "close")
        MockCluster mockCluster() {
            MockCluster cluster = MockCluster.withWidgetCrd();
            return cluster;
        }

        @Bean
        KubernetesClient kubernetesClient(MockCluster mockCluster) {
            return mockCluster.client();
        }

        @Bean
        Spans spans() {
            return new Spans();
        }
    }

    /** Every span Brave finished. */
    static final class Spans extends SpanHandler {
        final List<MutableSpan> finished = new CopyOnWriteArrayList<>();

        @Override
        public boolean end(TraceContext context, MutableSpan span, Cause cause) {
            if (cause == Cause.FINISHED) {
                finished.add(span);
            }
            return true;
        }

        Optional<MutableSpan> reconcileOf(String key) {
            return finished.stream().filter(span -> key.equals(span.tag("kubeloop.key"))
                    && "reconcile traced".equals(span.name())).reduce((first, second) -> second);
        }

        List<MutableSpan> childrenOf(MutableSpan parent) {
            return finished.stream().filter(span -> parent.id().equals(span.parentId())).toList();
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    MockCluster cluster;

    @Autowired
    Spans spans;

    @Autowired
    TracedReconciler reconciler;

    @Test
    void aReconcileIsOneTraceWithItsQueueCauseItsStepsAndItsApiRequests() {
        cluster.client().resource(Widget.named("ns", "shop")).create();

        eventually().until(() -> spans.reconcileOf("ns/shop").filter(span -> span.tag("kubeloop.outcome") != null)
                .isPresent());
        MutableSpan reconcile = spans.reconcileOf("ns/shop").orElseThrow();
        assertThat(reconcile.tags()).containsEntry("kubeloop.controller", "traced")
                .containsEntry("kubeloop.outcome", "success").containsEntry("kubeloop.attempt", "1")
                .containsEntry("kubeloop.generation", "1").containsKey("kubeloop.queue.wait_ms");
        // the Widget's creation reaches the informer before its first list on a fresh start, or after it
        assertThat(reconcile.tag("kubeloop.queue.cause")).isIn("change", "initial-list");
        assertThat(reconcile.parentId()).isNull(); // no annotation: a trace of its own

        List<MutableSpan> children = spans.childrenOf(reconcile);
        assertThat(children).extracting(MutableSpan::name).contains("finalizer", "PATCH configmaps");
        MutableSpan finalizer = children.stream().filter(span -> "finalizer".equals(span.name())).findFirst()
                .orElseThrow();
        // the finalizer's PATCH nests under its step, with the step's trace
        assertThat(spans.childrenOf(finalizer)).extracting(MutableSpan::name).containsExactly("PATCH widgets.kubeloop.dev");
        MutableSpan apply = children.stream().filter(span -> "PATCH configmaps".equals(span.name())).findFirst()
                .orElseThrow();
        assertThat(apply.tag("http.response.status_code")).isIn("200", "201"); // 201: the apply created it
        assertThat(apply.tags())
                .containsEntry("url.path", "/api/v1/namespaces/ns/configmaps/shop");
        assertThat(apply.traceId()).isEqualTo(reconcile.traceId());

        // the API server was asked with the request span's context: a traced kube-apiserver continues it
        RecordedRequest sent = cluster.applies("/api/v1/namespaces/ns/configmaps/shop").get(0);
        assertThat(sent.getHeader("traceparent")).isEqualTo("00-" + reconcile.traceId() + "-" + apply.id() + "-01");

        // the reconcile's log lines carry its trace id
        assertThat(reconciler.traceId("ns/shop")).isEqualTo(reconcile.traceId());
    }

    @Test
    void anObjectsOwnChangeJoinsTheTraceInItsAnnotation() {
        Widget widget = Widget.named("ns", "joined");
        widget.getMetadata().setAnnotations(Map.of("kubeloop.dev/traceparent", "00-" + TRACE_ID + "-" + PARENT_SPAN
                + "-01"));
        cluster.client().resource(widget).create();

        eventually().until(() -> spans.reconcileOf("ns/joined").isPresent());
        MutableSpan reconcile = spans.reconcileOf("ns/joined").orElseThrow();
        assertThat(reconcile.traceId()).isEqualTo(TRACE_ID);
        assertThat(reconcile.parentId()).isEqualTo(PARENT_SPAN);
        assertThat(reconcile.tags()).containsEntry("kubeloop.queue.cause", "change");
    }

    @Test
    void reconcileTimeCarriesTraceExemplarsInOpenMetrics() throws Exception {
        cluster.client().resource(Widget.named("ns", "exemplar")).create();
        eventually().until(() -> spans.reconcileOf("ns/exemplar").isPresent());

        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + port + "/actuator/prometheus"))
                .header("Accept", "application/openmetrics-text; version=1.0.0")
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body().lines().filter(line -> line.startsWith("controller_runtime_reconcile_time_seconds_bucket")
                && line.contains("controller=\"traced\"") && line.contains("# {span_id=\"")))
                .anySatisfy(line -> assertThat(line).containsPattern("trace_id=\"[0-9a-f]{32}\""));
    }
}
