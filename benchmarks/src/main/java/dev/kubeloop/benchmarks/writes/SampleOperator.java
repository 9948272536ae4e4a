package dev.kubeloop.benchmarks.writes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sample operator as users run it: its Spring Boot jar in a JVM of its own, either against
 * the API server of {@code KUBECONFIG}, confined to one namespace, or in demo mode (its embedded
 * API server). Its fabric8 client sends {@link #USER_AGENT} ({@code kubernetes.user.agent}, read
 * by fabric8's configuration), which is how the audit log tells its requests from the harness's.
 * The harness reads it only through its actuator endpoints, like a user would.
 */
final class SampleOperator implements AutoCloseable {

    static final String USER_AGENT = "kubeloop-sample-operator/writes-harness";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path log;
    private final URI actuator;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private SampleOperator(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.actuator = URI.create("http://127.0.0.1:" + port + "/actuator/");
    }

    /** Against the cluster of {@code kubeconfig}, watching {@code namespace} only. */
    static SampleOperator againstCluster(Path jar, Path kubeconfig, String namespace, List<String> jvmArgs,
            List<String> appArgs, Path log) throws IOException {
        List<String> args = new ArrayList<>(List.of("--sample.demo=off", "--kubeloop.namespaces=" + namespace));
        args.addAll(appArgs);
        return start(jar, kubeconfig, jvmArgs, args, log);
    }

    /** Demo mode, as a new user first runs it: no cluster, two Websites created by the app itself. */
    static SampleOperator demo(Path jar, List<String> jvmArgs, List<String> appArgs, Path log) throws IOException {
        List<String> args = new ArrayList<>(List.of("--sample.demo=on"));
        args.addAll(appArgs);
        return start(jar, null, jvmArgs, args, log);
    }

    private static SampleOperator start(Path jar, Path kubeconfig, List<String> jvmArgs, List<String> appArgs,
            Path log) throws IOException {
        int port = freePort();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.add("-Dkubernetes.user.agent=" + USER_AGENT);
        command.addAll(List.of("-jar", jar.toString(), "--server.port=" + port, "--spring.main.banner-mode=off"));
        command.addAll(appArgs);
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
        builder.environment().remove("KUBECONFIG");
        if (kubeconfig != null) {
            builder.environment().put("KUBECONFIG", kubeconfig.toString());
        }
        return new SampleOperator(builder.start(), log, port);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Waits until the context is up and every informer has synced ({@code /actuator/kubeloop} says so). */
    void awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the operator exited with " + process.exitValue() + " (log: " + log + ")");
            }
            try {
                JsonNode manager = JSON.readTree(get("kubeloop"));
                if (manager.path("synced").asBoolean() && "RUNNING".equals(manager.path("state").asText())) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the operator was not ready within " + timeout + " (log: " + log + ")");
    }

    /** GET of an actuator endpoint ({@code prometheus}, {@code kubeloop}, ...). */
    String get(String endpoint) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(actuator.resolve(endpoint))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + endpoint + ": HTTP " + response.statusCode());
        }
        return response.body();
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    /** SIGTERM (Spring's graceful shutdown), then a kill if it takes longer than a minute. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                System.err.println("the operator did not stop within 60 s, killing it (log: " + log + ")");
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing anyway; the caller sees the interrupt
        }
    }
}
