package dev.kubeloop.autoconfigure.secrets;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.CapturedLogs;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Secrets never leave the process through what an operator prints: a reconciler owns a Secret
 * with a known password (cached by the owned-type informer, created, conflicted on, patched), and
 * neither the password, nor its base64 form, nor the client's bearer token appears in anything
 * Kubeloop logs at DEBUG while it does so, in {@code /actuator/kubeloop}, {@code /actuator/health}
 * or {@code /actuator/prometheus}.
 */
@SpringBootTest(classes = {SecretOwningApplication.class, SecretsNeverPrintedTest.MockApiServer.class},
        webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
            "management.endpoints.web.exposure.include=health,prometheus,kubeloop",
            "management.endpoint.health.show-details=always",
            "management.endpoint.health.show-components=always"})
@DirtiesContext
class SecretsNeverPrintedTest {

    private static final String TOKEN = "bearer-token-kubeloop-9c1d0e";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TestConfiguration(proxyBeanMethods = false)
    static class MockApiServer {
        @Bean(destroyMethod = "close")
        MockCluster mockCluster() {
            return MockCluster.withWidgetCrd();
        }

        /** A client that sends a bearer token, as one in a pod does. */
        @Bean(destroyMethod = "close")
        KubernetesClient kubernetesClient(MockCluster mockCluster) {
            return mockCluster.newClient(builder -> builder.withConfig(
                    new ConfigBuilder(mockCluster.client().getConfiguration()).withOauthToken(TOKEN).build()));
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    KubernetesClient client;

    @Autowired
    MockCluster cluster;

    @Autowired
    ControllerManager manager;

    @Autowired
    CredentialsReconciler reconciler;

    /** Opened once the application runs: Spring Boot's logging system resets Logback while it starts. */
    private CapturedLogs logs;

    @BeforeEach
    void startCapturing() {
        logs = CapturedLogs.of("dev.kubeloop", Level.DEBUG);
    }

    @AfterEach
    void stopCapturing() {
        logs.close();
    }

    @Test
    void theSecretsDataAndTheTokenAppearInNoLogEndpointOrMetric() throws Exception {
        client.resource(Widget.named("ns", "w")).create();
        eventually().until(() -> reconciler.calls("ns/w") >= 3
                && manager.controller("widget").orElseThrow().count(ReconcileOutcome.SUCCESS) >= 1);
        Secret stored = client.secrets().inNamespace("ns").withName("w-credentials").get();
        String base64 = Base64.getEncoder().encodeToString(CredentialsReconciler.PASSWORD.getBytes(StandardCharsets.UTF_8));
        assertThat(stored.getData()).as("the API server holds the secret, base64-encoded").containsEntry("password", base64);
        assertThat(cluster.requests()).as("the client sent its token")
                .anySatisfy(request -> assertThat(request.getHeader("Authorization")).isEqualTo("Bearer " + TOKEN));
        eventually().until(() -> manager.informers().stream().anyMatch(i -> i.kind().equals("Secret")
                && i.cachedObjects() == 1));

        Map<String, String> printed = new LinkedHashMap<>();
        printed.put("logs", logs.allText());
        printed.put("/actuator/kubeloop", get("/actuator/kubeloop"));
        printed.put("/actuator/kubeloop/widget", get("/actuator/kubeloop/widget"));
        printed.put("/actuator/health", get("/actuator/health"));
        printed.put("/actuator/prometheus", get("/actuator/prometheus"));

        // what is scanned is real: the failure path ran, was logged and is kept for the endpoint
        assertThat(printed.get("logs")).contains("DEBUG", "already exists");
        assertThat(printed.get("/actuator/kubeloop/widget")).contains("already exists");
        assertThat(printed.get("/actuator/prometheus")).contains("controller_runtime_reconcile_total");
        printed.forEach((where, text) -> assertThat(text).as(where)
                .doesNotContain(CredentialsReconciler.PASSWORD, base64, TOKEN));
        int bytes = printed.values().stream().mapToInt(String::length).sum();
        System.out.println("[reliability] scenario=secrets-never-printed load=1 Widget owning 1 Secret, 3 reconciles "
                + "(create, 409 conflict, patch) faults=409 AlreadyExists result=password, its base64 and the bearer "
                + "token absent figures=logEvents=" + logs.events().size() + " charsScanned=" + bytes
                + " sourcesScanned=" + printed.size());
    }

    private String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response.body();
    }
}
