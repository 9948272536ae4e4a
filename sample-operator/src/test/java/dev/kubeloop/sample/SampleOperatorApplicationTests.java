package dev.kubeloop.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeloop.sample.website.Website;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The README's run command in a test: demo mode, its two Websites reconciled to Ready. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.demo=on")
class SampleOperatorApplicationTests {

    @LocalServerPort
    int port;

    @Autowired
    KubernetesClient client;

    @Test
    void demoModeServesBothDemoSites() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            List<Website> sites = client.resources(Website.class).inNamespace("demo").list().getItems();
            assertThat(sites).extracting(site -> site.getMetadata().getName()).containsExactlyInAnyOrder("hello", "docs");
            assertThat(sites).allSatisfy(site -> {
                assertThat(site.getStatus()).isNotNull();
                assertThat(site.getStatus().getObservedGeneration()).isEqualTo(site.getMetadata().getGeneration());
                assertThat(site.getStatus().condition("Ready")).hasValueSatisfying(
                        ready -> assertThat(ready.getStatus()).isEqualTo("True"));
                assertThat(client.apps().deployments().inNamespace("demo").withName(site.getMetadata().getName())
                        .get()).isNotNull();
            });
        });
    }

    /**
     * The fresh demo as a new user sees it at /actuator/kubeloop: before issue 17, 3 of its 7
     * reconciles were 409 conflicts (the finalizer moved the resourceVersion under the status patch,
     * and two reconciles raced on the shared index ConfigMap).
     */
    @Test
    void theFreshDemoReconcilesWithoutAConflictOrAnError() throws Exception {
        demoModeServesBothDemoSites();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Map<String, Object> website = website(get("/actuator/kubeloop"));
            assertThat(website.get("queue")).asString().contains("depth=0", "processing=0");
        });

        Map<String, Object> website = website(get("/actuator/kubeloop"));
        Map<?, ?> reconciles = (Map<?, ?>) website.get("reconciles");
        assertThat(reconciles.get("conflict")).as("conflicts in %s", reconciles).isEqualTo(0);
        assertThat(reconciles.get("error")).as("errors in %s", reconciles).isEqualTo(0);
        assertThat((List<?>) website.get("lastErrors")).isEmpty();
        Map<?, ?> writes = (Map<?, ?>) website.get("writes");
        assertThat(((Map<?, ?>) writes.get("sent")).get("update_status")).isEqualTo(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> website(String body) {
        Map<String, Object> kubeloop = new KubernetesSerialization().unmarshal(body, Map.class);
        return (Map<String, Object>) ((Map<String, Object>) kubeloop.get("controllers")).get("website");
    }

    private String get(String path) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    @Test
    void contextStartsAndHealthIsUp() throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health"))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();

        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"status\":\"UP\"");
    }
}
