package dev.kubeloop.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * What the sample operator serves over HTTP with its own configuration and a separate management
 * port, as the Helm chart deploys it (MANAGEMENT_SERVER_PORT): health, info, prometheus and the
 * read side of /actuator/kubeloop on the management port only; every other actuator endpoint
 * (env, configprops, heapdump, threaddump, loggers, ...) is not there, and neither is the write
 * side of /actuator/kubeloop.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {"sample.demo=on",
        "management.server.port=0"})
class ActuatorExposureTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @LocalServerPort
    int applicationPort;

    @Value("${local.management.port}")
    int managementPort;

    @Test
    void healthInfoPrometheusAndKubeloopAreServedOnTheManagementPortOnly() throws Exception {
        assertThat(managementPort).isNotEqualTo(applicationPort);
        for (String path : List.of("/actuator/info", "/actuator/prometheus", "/actuator/kubeloop",
                "/actuator/kubeloop/website")) {
            assertThat(get(managementPort, path).statusCode()).as("GET %s on the management port", path)
                    .isEqualTo(200);
        }
        for (String path : List.of("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness")) {
            // served: 200 when up, 503 while not (yet) ready
            assertThat(get(managementPort, path).statusCode()).as("GET %s on the management port", path)
                    .isIn(200, 503);
        }
        for (String path : List.of("/actuator", "/actuator/health", "/actuator/prometheus", "/actuator/kubeloop")) {
            assertThat(get(applicationPort, path).statusCode()).as("GET %s on the application port", path)
                    .isEqualTo(404);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"env", "env/JAVA_HOME", "configprops", "heapdump", "threaddump", "loggers",
        "loggers/ROOT", "beans", "mappings", "conditions", "metrics", "scheduledtasks", "caches", "httpexchanges",
        "sbom", "startup", "shutdown", "quartz", "sessions", "flyway", "liquibase", "auditevents", "logfile"})
    void sensitiveEndpointsAreNotExposed(String endpoint) throws Exception {
        assertThat(get(managementPort, "/actuator/" + endpoint).statusCode()).as("GET /actuator/%s", endpoint)
                .isEqualTo(404);
    }

    @Test
    void theIntrospectionEndpointIsReadOnlyAndNothingCanBeShutDown() throws Exception {
        HttpResponse<String> enqueue = post(managementPort, "/actuator/kubeloop/website", "{\"key\":\"demo/hello\"}");
        assertThat(enqueue.statusCode()).as("POST /actuator/kubeloop/website (write access is opt-in)")
                .isIn(404, 405);
        assertThat(post(managementPort, "/actuator/shutdown", "{}").statusCode()).isIn(404, 405);
        assertThat(post(managementPort, "/actuator/loggers/dev.kubeloop", "{\"configuredLevel\":\"TRACE\"}")
                .statusCode()).isIn(404, 405);
    }

    /** The sample's refresh trigger authenticates nobody: off unless sample.refresh.enabled (never in the chart). */
    @Test
    void theUnauthenticatedRefreshTriggerIsOffByDefault() throws Exception {
        assertThat(post(applicationPort, "/websites/kube-system/anything/refresh", "").statusCode()).isEqualTo(404);
        assertThat(post(applicationPort, "/websites/demo/hello/refresh", "").statusCode()).isEqualTo(404);
    }

    private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(int port, String path, String json)
            throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
