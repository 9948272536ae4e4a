package dev.kubeloop.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeloop.sample.website.Website;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
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
