package dev.kubeloop.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.kubeloop.sample.website.Website;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A real Prometheus scrapes the running sample operator: Debian's {@code prometheus} binary,
 * started on a free loopback port with a generated configuration and its storage under
 * {@code target/}, scrapes {@code /actuator/prometheus} every second, and its HTTP query API must
 * return controller-runtime's series for the sample's controller. The sample runs as the README's
 * run command starts it: in demo mode, against its embedded API server with two Websites. Every
 * wait has a deadline; Prometheus and the application are stopped at the end.
 *
 * <p>Prometheus must be installed ({@code .ci/run} installs it with apt-get when missing): without
 * it this test fails, saying so, rather than skipping silently.
 */
class PrometheusScrapeTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String CONTROLLER = "website";
    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private ConfigurableApplicationContext application;
    private Process prometheus;
    private Path workDirectory;

    @AfterEach
    void stopEverything() throws Exception {
        try {
            if (prometheus != null) {
                prometheus.destroy();
                if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                    prometheus.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        } finally {
            if (application != null) {
                application.close();
            }
        }
    }

    @Test
    void prometheusScrapesControllerRuntimeSeriesOfTheSamplesController() throws Exception {
        Path binary = prometheusBinary();
        int appPort = startSampleInDemoMode();
        KubernetesClient client = application.getBean(KubernetesClient.class);
        awaitUntil("the sample reconciled both demo Websites", () -> client.resources(Website.class)
                .inNamespace("demo").list().getItems().stream()
                .filter(site -> site.getStatus() != null && site.getStatus().condition("Ready")
                        .filter(ready -> "True".equals(ready.getStatus())).isPresent())
                .count() == 2);

        int prometheusPort = freeLoopbackPort();
        startPrometheus(binary, appPort, prometheusPort);
        awaitUntil("Prometheus is ready", () -> status("http://127.0.0.1:" + prometheusPort + "/-/ready") == 200);

        List<Map<String, Object>> up = awaitSeries(prometheusPort, "up{job=\"kubeloop-sample\"} == 1");
        assertThat(up).as("the sample is scraped").hasSize(1);

        List<Map<String, Object>> reconciles = awaitSeries(prometheusPort,
                "controller_runtime_reconcile_total{controller=\"" + CONTROLLER + "\",result=\"success\"} >= 2");
        assertThat(labels(reconciles.get(0))).containsEntry("__name__", "controller_runtime_reconcile_total")
                .containsEntry("controller", CONTROLLER).containsEntry("result", "success")
                .containsEntry("job", "kubeloop-sample");
        List<Map<String, Object>> allResults = awaitSeries(prometheusPort,
                "controller_runtime_reconcile_total{controller=\"" + CONTROLLER + "\"}");
        assertThat(allResults).extracting(series -> labels(series).get("result"))
                .containsExactlyInAnyOrder("success", "error", "requeue", "requeue_after");

        List<Map<String, Object>> depth = awaitSeries(prometheusPort,
                "workqueue_depth{controller=\"" + CONTROLLER + "\",name=\"" + CONTROLLER + "\"}");
        assertThat(depth).extracting(series -> labels(series).get("priority")).containsExactlyInAnyOrder("0", "-100");

        awaitSeries(prometheusPort, "histogram_quantile(0.99, sum by (le) (rate("
                + "controller_runtime_reconcile_time_seconds_bucket{controller=\"" + CONTROLLER + "\"}[1m])))");
        awaitSeries(prometheusPort, "kubeloop_informer_cached_objects{kind=\"Website\"} == 2");
    }

    // --- the sample application in demo mode ------------------------------------------------------

    /** Starts the sample as the README's run command does: demo mode, its embedded API server and two Websites. */
    private int startSampleInDemoMode() {
        int[] port = new int[1];
        application = new SpringApplicationBuilder(SampleOperatorApplication.class)
                .listeners(event -> {
                    if (event instanceof WebServerInitializedEvent initialized) {
                        port[0] = initialized.getWebServer().getPort();
                    }
                })
                .run("--server.port=0", "--server.address=127.0.0.1", "--spring.main.banner-mode=off",
                        "--sample.demo=on");
        assertThat(port[0]).as("the sample's HTTP port").isPositive();
        return port[0];
    }

    // --- Prometheus -------------------------------------------------------------------------------

    /** Debian's package puts it in /usr/bin; anything on the PATH will do. */
    private static Path prometheusBinary() {
        Optional<Path> found = Stream.concat(
                        Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)),
                        Stream.of("/usr/bin", "/usr/local/bin"))
                .filter(directory -> !directory.isBlank())
                .map(directory -> Path.of(directory, "prometheus"))
                .filter(Files::isExecutable)
                .findFirst();
        if (found.isEmpty()) {
            fail("Prometheus is not installed, so the sample cannot be scraped by a real Prometheus. Install "
                    + "Debian's package (apt-get install -y --no-install-recommends prometheus), as .ci/run does.");
        }
        return found.get();
    }

    private void startPrometheus(Path binary, int appPort, int prometheusPort) throws IOException {
        workDirectory = Path.of("target", "prometheus-scrape-test");
        deleteRecursively(workDirectory);
        Files.createDirectories(workDirectory);
        Path config = workDirectory.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: kubeloop-sample
                    metrics_path: /actuator/prometheus
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(appPort));
        prometheus = new ProcessBuilder(binary.toString(),
                "--config.file=" + config.toAbsolutePath(),
                "--storage.tsdb.path=" + workDirectory.resolve("data").toAbsolutePath(),
                "--web.listen-address=127.0.0.1:" + prometheusPort,
                "--log.level=warn")
                .redirectErrorStream(true)
                .redirectOutput(workDirectory.resolve("prometheus.log").toFile())
                .start();
    }

    /** Polls the query API until {@code query} returns at least one series; returns them. */
    private List<Map<String, Object>> awaitSeries(int prometheusPort, String query) throws Exception {
        String url = "http://127.0.0.1:" + prometheusPort + "/api/v1/query?query="
                + URLEncoder.encode(query, StandardCharsets.UTF_8);
        List<List<Map<String, Object>>> result = new ArrayList<>();
        result.add(List.of());
        awaitUntil("Prometheus returns series for " + query, () -> {
            try {
                HttpResponse<String> response = get(url);
                if (response.statusCode() != 200) {
                    return false;
                }
                Map<String, Object> body = json(response.body());
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> series = (List<Map<String, Object>>) ((Map<String, Object>) body
                        .get("data")).get("result");
                result.set(0, series);
                return !series.isEmpty();
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        return result.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> labels(Map<String, Object> series) {
        return new LinkedHashMap<>((Map<String, String>) series.get("metric"));
    }

    /** The sample value of an instant vector element: {@code [timestamp, "value"]}. */
    private static String value(Map<String, Object> series) {
        return String.valueOf(((List<?>) series.get("value")).get(1));
    }

    // --- plumbing -----------------------------------------------------------------------------------

    /** Waits until {@code condition} holds, within the deadline; fails at once if Prometheus exits. */
    private void awaitUntil(String what, BooleanSupplier condition) throws IOException {
        try {
            Awaitility.await(what).atMost(DEADLINE).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                    .failFast("Prometheus exited", () -> prometheus != null && !prometheus.isAlive())
                    .until(condition::getAsBoolean);
        } catch (ConditionTimeoutException | TerminalFailureException e) {
            fail(e.getMessage() + prometheusLog(), e);
        }
    }

    private String prometheusLog() throws IOException {
        if (workDirectory == null || !Files.exists(workDirectory.resolve("prometheus.log"))) {
            return "";
        }
        List<String> lines = Files.readAllLines(workDirectory.resolve("prometheus.log"));
        return "\nPrometheus log (last lines):\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }

    private static int status(String url) {
        try {
            return get(url).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(path);
            }
        }
    }


    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String body) {
        return JSON.unmarshal(body, Map.class);
    }
}
