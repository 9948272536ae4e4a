package dev.kubeloop.autoconfigure.actuator;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.PrometheusText;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The whole actuator surface over HTTP, in a real application on a random port against the mock API
 * server: {@code /actuator/prometheus} after reconciles of every kind, the readiness group, and the
 * {@code /actuator/kubeloop} endpoint's JSON and write operation.
 */
@SpringBootTest(classes = {ActuatorTestApplication.class, ActuatorEndpointsTest.MockApiServer.class},
        webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
            "management.endpoints.web.exposure.include=health,prometheus,kubeloop",
            "management.endpoint.health.show-details=always",
            "management.endpoint.health.show-components=always",
            "management.endpoint.kubeloop.access=unrestricted",
            "kubeloop.introspection.last-errors=5"})
@DirtiesContext
class ActuatorEndpointsTest {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TestConfiguration(proxyBeanMethods = false)
    static class MockApiServer {
        @Bean(destroyMethod = "close")
        MockCluster mockCluster() {
            return MockCluster.withWidgetCrd();
        }

        @Bean
        KubernetesClient kubernetesClient(MockCluster mockCluster) {
            return mockCluster.client();
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    MockCluster cluster;

    @Autowired
    ControllerManager manager;

    @Autowired
    OutcomeReconciler reconciler;

    @Autowired
    HealthEndpointGroups healthGroups;

    private Controller<?> widget;

    @BeforeEach
    void reconcileOneWidgetOfEveryKind() {
        widget = manager.controller("widget").orElseThrow();
        if (widget.count(ReconcileOutcome.SUCCESS) > 0) {
            return; // the context (and its widgets) is shared by the tests of this class
        }
        for (String name : List.of("ok", "flaky", "broken", "again", "later")) {
            cluster.client().resource(Widget.named("ns", name)).create();
        }
        eventually().until(() -> widget.count(ReconcileOutcome.SUCCESS) == 4
                && widget.count(ReconcileOutcome.TERMINAL_ERROR) == 1 && widget.queueStats().idle());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value) {
        return (List<Map<String, Object>>) value;
    }

    @Test
    void prometheusServesControllerRuntimesMetricsWithTheReconcilesCounted() throws Exception {
        HttpResponse<String> response = get("/actuator/prometheus");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains(
                "# HELP controller_runtime_reconcile_total Total number of reconciliations per controller",
                "# TYPE controller_runtime_reconcile_total counter",
                "# TYPE controller_runtime_reconcile_time_seconds histogram",
                "# TYPE workqueue_depth gauge");
        PrometheusText metrics = PrometheusText.parse(response.body());
        assertThat(metrics.value("controller_runtime_reconcile_total", "controller", "widget", "result", "success"))
                .contains(4.0);
        assertThat(metrics.value("controller_runtime_reconcile_total", "controller", "widget", "result", "error"))
                .contains(2.0);
        assertThat(metrics.value("controller_runtime_reconcile_total", "controller", "widget", "result", "requeue"))
                .contains(1.0);
        assertThat(metrics.value("controller_runtime_reconcile_total", "controller", "widget", "result",
                "requeue_after")).contains(1.0);
        assertThat(metrics.value("controller_runtime_reconcile_errors_total", "controller", "widget")).contains(2.0);
        assertThat(metrics.value("controller_runtime_terminal_reconcile_errors_total", "controller", "widget"))
                .contains(1.0);
        assertThat(metrics.value("controller_runtime_reconcile_panics_total", "controller", "widget")).contains(0.0);
        assertThat(metrics.value("controller_runtime_reconcile_timeouts_total", "controller", "widget"))
                .contains(0.0);
        assertThat(metrics.value("controller_runtime_reconcile_time_seconds_count", "controller", "widget"))
                .contains(8.0);
        assertThat(metrics.value("controller_runtime_reconcile_time_seconds_bucket", "controller", "widget", "le",
                "60.0")).contains(8.0);
        assertThat(metrics.value("controller_runtime_max_concurrent_reconciles", "controller", "widget"))
                .contains(2.0);
        assertThat(metrics.value("controller_runtime_active_workers", "controller", "widget")).contains(0.0);
        assertThat(metrics.value("workqueue_adds_total", "name", "widget", "controller", "widget")).contains(8.0);
        assertThat(metrics.value("workqueue_retries_total", "name", "widget", "controller", "widget")).contains(3.0);
        assertThat(metrics.value("workqueue_depth", "name", "widget", "controller", "widget", "priority", "0"))
                .contains(0.0);
        assertThat(metrics.value("workqueue_depth", "name", "widget", "controller", "widget", "priority", "-100"))
                .contains(0.0);
        assertThat(metrics.value("workqueue_queue_duration_seconds_count", "name", "widget", "controller", "widget"))
                .contains(8.0);
        assertThat(metrics.value("workqueue_work_duration_seconds_count", "name", "widget", "controller", "widget"))
                .contains(8.0);
        assertThat(metrics.value("workqueue_unfinished_work_seconds", "name", "widget", "controller", "widget"))
                .contains(0.0);
        assertThat(metrics.value("workqueue_longest_running_processor_seconds", "name", "widget", "controller",
                "widget")).contains(0.0);
        assertThat(metrics.value("kubeloop_informer_cached_objects", "group", "kubeloop.dev", "version", "v1",
                "kind", "Widget", "watch_namespace", "*", "label_selector", "", "field_selector", "", "metadata_only", "false")).contains(5.0);
        assertThat(metrics.value("kubeloop_informer_watch_restarts_total", "group", "kubeloop.dev", "version", "v1",
                "kind", "Widget", "watch_namespace", "*", "label_selector", "", "field_selector", "", "metadata_only", "false")).contains(0.0);
    }

    @Test
    void readinessIncludesKubeloopWhichIsUpOnceTheCachesHaveSynced() throws Exception {
        assertThat(healthGroups.get("readiness").isMember("kubeloop")).isTrue();
        assertThat(healthGroups.get("liveness").isMember("kubeloop")).as("liveness does not depend on the caches")
                .isFalse();

        HttpResponse<String> readiness = get("/actuator/health/readiness");
        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(json(readiness.body())).containsEntry("status", "UP");
        assertThat(get("/actuator/health/liveness").statusCode()).isEqualTo(200);

        HttpResponse<String> health = get("/actuator/health");
        Map<String, Object> kubeloop = map(map(json(health.body()).get("components"))
                .get("kubeloop"));
        assertThat(kubeloop).containsEntry("status", "UP");
        Map<String, Object> details = map(kubeloop.get("details"));
        assertThat(details).containsEntry("state", "RUNNING");
        Map<String, Object> widgetHealth = map(map(details.get("controllers")).get("widget"));
        assertThat(widgetHealth).containsEntry("status", "UP").containsEntry("synced", true);
        assertThat(map(widgetHealth.get("workers"))).containsEntry("max", 2).containsEntry("alive", 2);
        assertThat(list(widgetHealth.get("informers"))).singleElement().satisfies(informer -> assertThat(informer)
                .containsEntry("informer", "widgets.kubeloop.dev in all namespaces").containsEntry("synced", true)
                .containsEntry("cachedObjects", 5));
    }

    @Test
    void theKubeloopEndpointDescribesEveryController() throws Exception {
        HttpResponse<String> response = get("/actuator/kubeloop");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        Map<String, Object> body = json(response.body());
        assertThat(body).containsEntry("state", "RUNNING").containsEntry("synced", true);
        assertThat(map(body.get("leadership"))).containsEntry("leaderElection", false).containsEntry("leader", true);
        Map<String, Object> widget = map(map(body.get("controllers")).get("widget"));

        assertThat(map(widget.get("resource"))).containsEntry("group", "kubeloop.dev").containsEntry("version", "v1")
                .containsEntry("kind", "Widget").containsEntry("name", "widgets.kubeloop.dev");
        assertThat(map(widget.get("scope"))).containsEntry("namespaced", true).containsEntry("namespaces", "all")
                .containsEntry("labelSelector", "");
        assertThat(map(widget.get("workers"))).containsEntry("active", 0).containsEntry("max", 2)
                .containsEntry("alive", 2);
        Map<String, Object> queue = map(widget.get("queue"));
        assertThat(queue).containsEntry("depth", 0).containsEntry("processing", 0);
        assertThat(map(queue.get("depthByPriority"))).containsExactly(Map.entry("0", 0), Map.entry("-100", 0));
        assertThat(queue).containsKeys("waiting", "unfinishedWorkSeconds", "longestRunningProcessorSeconds");
        assertThat(list(widget.get("inFlight"))).isEmpty();
        assertThat(list(widget.get("lastErrors"))).extracting(e -> e.get("key"), e -> e.get("outcome"),
                        e -> e.get("message"), e -> e.get("attempt"))
                .contains(tuple("ns/broken", "terminal_error",
                                "spec.size must be positive", 1),
                        tuple("ns/flaky", "error", "dependency not ready", 1));
        assertThat(list(widget.get("lastErrors"))).allSatisfy(error -> assertThat(error).containsKey("time"));
        assertThat((String) widget.get("lastSuccess")).isNotBlank();
        assertThat(map(widget.get("reconciles"))).containsEntry("success", 4).containsEntry("terminal_error", 1)
                .containsEntry("error", 1).containsEntry("requeue", 1).containsEntry("requeue_after", 1);
        Map<String, Object> writes = map(widget.get("writes"));
        assertThat(map(writes.get("sent"))).containsOnlyKeys("apply", "apply_status", "update_status", "finalizer",
                "prune", "delete").containsEntry("apply", 0);
        assertThat(map(writes.get("skipped"))).containsEntry("apply_status", 0);
        assertThat(map(writes.get("readYourWrites"))).containsEntry("staleReadsAvoided", 0)
                .containsEntry("staleReadsNotAvoided", 0).containsEntry("pendingWrites", 0)
                .containsKeys("cacheCatchUps", "lastCacheLagSeconds", "maxCacheLagSeconds");
        assertThat(list(widget.get("informers"))).singleElement().satisfies(informer -> assertThat(informer)
                .containsEntry("resource", "widgets.kubeloop.dev").containsEntry("namespace", "all")
                .containsEntry("synced", true).containsEntry("cachedObjects", 5)
                .containsEntry("watchRestarts", 0));

        HttpResponse<String> one = get("/actuator/kubeloop/widget");
        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(map(json(one.body()).get("resource"))).containsEntry("kind", "Widget");

        HttpResponse<String> missing = get("/actuator/kubeloop/nope");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("no controller named 'nope'", "widget");
    }

    @Test
    void postingAKeyQueuesAReconcileNow() throws Exception {
        int before = reconciler.calls("ns/ok");

        HttpResponse<String> queued = post("/actuator/kubeloop/widget", "{\"key\":\"ns/ok\"}");

        assertThat(queued.statusCode()).isEqualTo(202);
        assertThat(json(queued.body())).containsEntry("key", "ns/ok")
                .containsEntry("queued", true);
        eventually().until(() -> reconciler.calls("ns/ok") == before + 1);

        HttpResponse<String> noNamespace = post("/actuator/kubeloop/widget", "{\"key\":\"ok\"}");
        assertThat(noNamespace.statusCode()).isEqualTo(400);
        assertThat(noNamespace.body()).contains("has no namespace");
        assertThat(post("/actuator/kubeloop/nope", "{\"key\":\"ns/ok\"}").statusCode()).isEqualTo(404);
    }

    /** Only keys of objects the controller reconciles (watched, in its cache) are queued; nothing else is. */
    @Test
    void aKeyTheControllerDoesNotReconcileIsRefusedAndNotQueued() throws Exception {
        for (ObjectKey key : List.of(ObjectKey.of("kube-system", "anything"), ObjectKey.of("ns", "never-created"))) {
            HttpResponse<String> refused = post("/actuator/kubeloop/widget", "{\"key\":\"" + key + "\"}");

            assertThat(refused.statusCode()).as("%s", key).isEqualTo(404);
            assertThat(refused.body()).contains("not reconciled by widget");
            assertThat(manager.controller("widget").orElseThrow().state(key)).as("never queued")
                    .isEqualTo(ItemState.ABSENT);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String body) {
        return JSON.unmarshal(body, Map.class);
    }
}
