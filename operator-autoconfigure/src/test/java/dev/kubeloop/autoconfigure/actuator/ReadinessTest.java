package dev.kubeloop.autoconfigure.actuator;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.testing.Eventually;
import dev.kubeloop.testing.MockCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Readiness over HTTP while the caches sync: the application is started by hand (a
 * {@code @SpringBootTest} only hands over a context once it has started), and the mock API server
 * holds the first list back until the test has seen the application refuse traffic. Also: the
 * introspection endpoint's write operation is off by default.
 */
class ReadinessTest {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String LIST = "/apis/kubeloop.dev/v1/widgets?resourceVersion=0";

    private final CountDownLatch listReleased = new CountDownLatch(1);
    private final AtomicInteger port = new AtomicInteger();
    private MockCluster cluster;
    private CompletableFuture<ConfigurableApplicationContext> application;

    @AfterEach
    void tearDown() throws Exception {
        listReleased.countDown();
        if (application != null) {
            application.get(Eventually.DEADLINE_MILLIS, TimeUnit.MILLISECONDS).close();
        }
        cluster.close();
    }

    @Test
    void readinessIsOutOfServiceUntilTheCachesHaveSyncedThenUp() throws Exception {
        cluster = MockCluster.withWidgetCrd();
        cluster.server().expect().get().withPath(LIST).andReply(200, request -> {
            try {
                listReleased.await(Eventually.DEADLINE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "{\"apiVersion\":\"kubeloop.dev/v1\",\"kind\":\"WidgetList\",\"items\":[],"
                    + "\"metadata\":{\"resourceVersion\":\"1\"}}";
        }).once();
        // started in the background: the context refresh only returns once the caches have synced
        application = CompletableFuture.supplyAsync(() -> start("management.endpoints.web.exposure.include=health",
                "management.endpoint.health.show-details=always"));

        eventually().until(() -> port.get() > 0);
        eventually().until(() -> get("/actuator/health/readiness").statusCode() == 503);
        HttpResponse<String> syncing = get("/actuator/health/readiness");
        assertThat(json(syncing.body())).containsEntry("status", "OUT_OF_SERVICE");
        assertThat(kubeloopHealth()).containsEntry("status", "OUT_OF_SERVICE");
        assertThat(details(kubeloopHealth())).containsEntry("state", "STARTING");
        assertThat(get("/actuator/health/liveness").statusCode()).as("syncing is alive").isEqualTo(200);

        listReleased.countDown();

        eventually().until(() -> get("/actuator/health/readiness").statusCode() == 200);
        assertThat(json(get("/actuator/health/readiness").body())).containsEntry("status", "UP");
        assertThat(kubeloopHealth()).containsEntry("status", "UP");
        assertThat(details(kubeloopHealth())).containsEntry("state", "RUNNING");
    }

    @Test
    void theWriteOperationIsOffUnlessAllowed() throws Exception {
        cluster = MockCluster.withWidgetCrd();
        listReleased.countDown();
        application = CompletableFuture.completedFuture(start("management.endpoints.web.exposure.include=kubeloop"));

        assertThat(get("/actuator/kubeloop/widget").statusCode()).isEqualTo(200);
        HttpResponse<String> write = HTTP.send(request("/actuator/kubeloop/widget")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"ns/a\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(write.statusCode()).as("POST is not mapped while access is read-only").isEqualTo(405);
    }

    /** Runs the test application against the mock API server, on a random port it records. */
    private ConfigurableApplicationContext start(String... properties) {
        KubernetesClient client = cluster.client();
        return new SpringApplicationBuilder(ActuatorTestApplication.class)
                .initializers(context -> context.getBeanFactory().registerSingleton("kubernetesClient", client))
                .listeners(event -> {
                    if (event instanceof WebServerInitializedEvent initialized) {
                        port.set(initialized.getWebServer().getPort());
                    }
                })
                .properties("server.port=0", "spring.main.banner-mode=off")
                .properties(properties)
                .run();
    }

    /** The kubeloop component of {@code /actuator/health}. */
    private Map<String, Object> kubeloopHealth() throws IOException, InterruptedException {
        return map(map(json(get("/actuator/health").body()).get("components")).get("kubeloop"));
    }

    private static Map<String, Object> details(Map<String, Object> component) {
        return map(component.get("details"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port.get() + path))
                .timeout(Duration.ofSeconds(10));
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String body) {
        return JSON.unmarshal(body, Map.class);
    }
}
