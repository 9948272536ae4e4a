package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The sample operator traced as its demo does it (the {@code tracing} profile: every reconcile
 * sampled, Brave exporting to Zipkin) against the real API server, asserted through a real Zipkin
 * server's HTTP API: a Website's reconcile is one trace with its API requests as children, and a
 * change carrying {@code kubeloop.dev/traceparent} is reconciled in the trace the annotation names;
 * with {@code kubeloop.tracing.propagate} the objects a reconcile writes carry its traceparent on.
 * Spans reach Zipkin asynchronously (the reporter batches them), so every read waits on a condition.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = {"sample.demo=off", "management.tracing.export.enabled=true", "kubeloop.tracing.propagate=true"})
@ActiveProfiles("tracing")
class TracingE2ETest {

    private static final String SERVICE = "kubeloop-sample-operator";
    private static final Duration EXPORTED = Duration.ofSeconds(60);
    private static final AtomicReference<ZipkinServer> ZIPKIN = new AtomicReference<>();

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    /** Starts Zipkin when the context is built, so that its endpoint is the exporter's. */
    @DynamicPropertySource
    static void zipkin(DynamicPropertyRegistry registry) {
        registry.add("management.tracing.export.zipkin.endpoint", () -> zipkinServer().spansEndpoint());
    }

    private static ZipkinServer zipkinServer() {
        return ZIPKIN.updateAndGet(running -> running != null ? running : ZipkinServer.start());
    }

    @AfterAll
    static void stopZipkin() {
        ZipkinServer server = ZIPKIN.getAndSet(null);
        if (server != null) {
            server.close();
            assertThat(server.alive()).as("Zipkin's process after stop").isFalse();
        }
    }

    @Test
    void aWebsitesReconcileIsOneTraceWithItsApiRequestsAsChildren() {
        kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), "traced", "t")).create());
        String key = kit.namespace() + "/traced";

        List<JsonNode> trace = await("the trace of " + key + "'s reconcile, its writes in it", () -> zipkinServer()
                .tracesTagged(SERVICE, "kubeloop.key", key).stream()
                .filter(spans -> reconcileOf(spans, key).isPresent() && named(spans).containsKey("patch configmaps")
                        && named(spans).containsKey("patch websites.sample.kubeloop.dev/status"))
                .findFirst());

        JsonNode reconcile = reconcileOf(trace, key).orElseThrow();
        assertThat(tags(reconcile)).containsEntry("kubeloop.controller", "website")
                .containsEntry("kubeloop.key", key).containsEntry("kubeloop.outcome", "success")
                .containsEntry("kubeloop.queue.cause", "change").containsEntry("kubeloop.attempt", "1");
        assertThat(reconcile.path("parentId").isMissingNode()).as("no annotation: a trace of its own").isTrue();
        Map<String, JsonNode> byName = named(trace);
        // the applies of its ConfigMap, Deployment and Service, the index entry, the finalizer and the status
        assertThat(byName).containsKeys("patch configmaps", "patch deployments.apps", "patch services",
                "patch websites.sample.kubeloop.dev", "patch websites.sample.kubeloop.dev/status", "finalizer", "status");
        for (String request : List.of("patch configmaps", "patch deployments.apps", "patch services")) {
            JsonNode span = byName.get(request);
            assertThat(span.path("parentId").asText()).as(request + "'s parent").isEqualTo(reconcile.path("id").asText());
            assertThat(tags(span)).containsEntry("kubeloop.controller", "website")
                    .containsEntry("http.request.method", "PATCH");
            assertThat(tags(span).get("http.response.status_code")).as(request).isIn("200", "201");
        }
        assertThat(tags(byName.get("patch services"))).containsEntry("url.path",
                "/api/v1/namespaces/" + kit.namespace() + "/services/traced");
        // the status write nests under its step, which nests under the reconcile
        JsonNode status = byName.get("status");
        assertThat(status.path("parentId").asText()).isEqualTo(reconcile.path("id").asText());
        assertThat(byName.get("patch websites.sample.kubeloop.dev/status").path("parentId").asText())
                .isEqualTo(status.path("id").asText());
        assertThat(trace).allSatisfy(span -> assertThat(span.path("traceId").asText())
                .isEqualTo(reconcile.path("traceId").asText()));
    }

    @Test
    void aChangeCarryingATraceparentIsReconciledInThatTrace() {
        Website site = kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), "joined", "before")).create());
        String key = kit.namespace() + "/joined";
        String traceId = hex(16);
        String parentSpan = hex(8);

        client.resource(site).edit(website -> {
            Map<String, String> annotations = new HashMap<>(Optional.ofNullable(website.getMetadata().getAnnotations())
                    .orElse(Map.of()));
            annotations.put("kubeloop.dev/traceparent", "00-" + traceId + "-" + parentSpan + "-01");
            website.getMetadata().setAnnotations(annotations);
            website.getSpec().setPage("after");
            return website;
        });

        List<JsonNode> trace = await("a reconcile of " + key + " in trace " + traceId, () -> Optional.of(zipkinServer()
                .trace(traceId)).filter(spans -> reconcileOf(spans, key).isPresent()
                        && named(spans).containsKey("patch configmaps")));

        JsonNode reconcile = reconcileOf(trace, key).orElseThrow();
        assertThat(reconcile.path("traceId").asText()).isEqualTo(traceId);
        assertThat(reconcile.path("parentId").asText()).as("the annotation's span").isEqualTo(parentSpan);
        assertThat(tags(reconcile)).containsEntry("kubeloop.queue.cause", "change")
                .containsEntry("kubeloop.outcome", "success");
        // the new page's ConfigMap written in that trace, as the reconcile's child
        assertThat(named(trace).get("patch configmaps").path("parentId").asText())
                .isEqualTo(reconcile.path("id").asText());
    }

    @Test
    void aChildCarriesTheTraceparentOfTheReconcileThatWroteIt() {
        kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), "onward", "o")).create());
        String key = kit.namespace() + "/onward";
        String traceparent = client.services().inNamespace(kit.namespace()).withName("onward").get().getMetadata()
                .getAnnotations().get("kubeloop.dev/traceparent");
        assertThat(traceparent).as("the Service's traceparent").matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
        String traceId = traceparent.substring(3, 35);
        String spanId = traceparent.substring(36, 52);

        // the span it names is the reconcile that sent the Service's apply (a retry joins the failed attempt's trace)
        String servicePath = "/api/v1/namespaces/" + kit.namespace() + "/services/onward";
        List<JsonNode> trace = await("the reconcile " + spanId + " of " + key + " in trace " + traceId,
                () -> Optional.of(zipkinServer().trace(traceId)).filter(spans -> spans.stream().anyMatch(span ->
                        servicePath.equals(tags(span).get("url.path")) && spanId.equals(span.path("parentId").asText()))
                        && spans.stream().anyMatch(span -> spanId.equals(span.path("id").asText()))));

        JsonNode reconcile = trace.stream().filter(span -> spanId.equals(span.path("id").asText())).findFirst()
                .orElseThrow();
        assertThat(reconcile.path("name").asText()).isEqualTo("reconcile website");
        assertThat(tags(reconcile)).containsEntry("kubeloop.key", key);
    }

    /** The reconcile span of {@code key} in a trace's spans (Zipkin lowercases span names). */
    private static Optional<JsonNode> reconcileOf(List<JsonNode> spans, String key) {
        return spans.stream().filter(span -> "reconcile website".equals(span.path("name").asText())
                && key.equals(span.path("tags").path("kubeloop.key").asText())).findFirst();
    }

    /** The spans by name, the first of each name (two ConfigMaps are applied: the content and the index). */
    private static Map<String, JsonNode> named(List<JsonNode> spans) {
        Map<String, JsonNode> byName = new HashMap<>();
        spans.forEach(span -> byName.putIfAbsent(span.path("name").asText().toLowerCase(Locale.ROOT), span));
        return byName;
    }

    private static Map<String, String> tags(JsonNode span) {
        Map<String, String> tags = new HashMap<>();
        span.path("tags").properties().forEach(entry -> tags.put(entry.getKey(), entry.getValue().asText()));
        return tags;
    }

    private static <T> T await(String description, java.util.function.Supplier<Optional<T>> found) {
        AtomicReference<T> result = new AtomicReference<>();
        Polls.await(description, EXPORTED, Duration.ofMillis(500), () -> {
            found.get().ifPresent(result::set);
            return result.get() != null;
        });
        return result.get();
    }

    private static String hex(int bytes) {
        StringBuilder hex = new StringBuilder();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < bytes; i++) {
            hex.append(String.format("%02x", random.nextInt(256)));
        }
        return hex.toString();
    }
}
