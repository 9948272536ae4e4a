package dev.kubeloop.sample.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Zipkin server ({@code io.zipkin:zipkin-server:3.5.1:exec}, which the e2e profile copies to
 * {@code target/zipkin}; the path comes in {@code e2e.zipkin.jar}) in a child JVM on a free port
 * with its in-memory storage, and the reads of its HTTP API the tests assert on. Its output goes to
 * {@code target/zipkin/zipkin-<port>.log}. One instance per test class: started once, stopped in
 * the class's {@code @AfterAll}; its methods are safe from any thread (the HTTP client is).
 */
final class ZipkinServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration STARTUP = Duration.ofSeconds(120);

    private final Process process;
    private final int port;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ZipkinServer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts the server and returns once {@code GET /health} answers 200; destroys it if it does not in time. */
    static ZipkinServer start() {
        String jar = System.getProperty("e2e.zipkin.jar");
        if (jar == null || !new File(jar).isFile()) {
            throw new IllegalStateException("e2e.zipkin.jar (set by the e2e profile) names no file: " + jar
                    + "; run with -Pe2e, which copies io.zipkin:zipkin-server:3.5.1:exec to target/zipkin");
        }
        int port = Polls.freePort();
        Path log = Path.of(jar).resolveSibling("zipkin-" + port + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx256m", "-jar", jar, "--server.port=" + port)
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("STORAGE_TYPE", "mem");
        builder.environment().put("QUERY_PORT", String.valueOf(port));
        ZipkinServer server;
        try {
            server = new ZipkinServer(builder.start(), port, log);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + java + " -jar " + jar, e);
        }
        try {
            Polls.await("Zipkin answers GET /health on port " + port + " (log: " + log + ")", STARTUP,
                    Duration.ofMillis(250), () -> {
                        if (!server.process.isAlive()) {
                            throw new AssertionError("Zipkin exited with " + server.process.exitValue() + "; log: "
                                    + server.logTail());
                        }
                        return server.status("/health") == 200;
                    });
        } catch (AssertionError | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** Where the application sends its spans ({@code management.tracing.export.zipkin.endpoint}). */
    String spansEndpoint() {
        return base() + "/api/v2/spans";
    }

    /** Traces with a span of {@code serviceName} tagged {@code tag=value}: each a list of spans. */
    List<List<JsonNode>> tracesTagged(String serviceName, String tag, String value) {
        JsonNode traces = get("/api/v2/traces?limit=100&serviceName=" + encode(serviceName) + "&annotationQuery="
                + encode(tag + "=" + value));
        List<List<JsonNode>> result = new ArrayList<>();
        traces.forEach(trace -> result.add(spans(trace)));
        return result;
    }

    /** The spans Zipkin has of the trace {@code traceId}; empty while it has none. */
    List<JsonNode> trace(String traceId) {
        HttpResponse<String> response = send("/api/v2/trace/" + traceId);
        if (response.statusCode() == 404) {
            return List.of();
        }
        return spans(parse(response));
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    private static List<JsonNode> spans(JsonNode trace) {
        List<JsonNode> spans = new ArrayList<>();
        trace.forEach(spans::add);
        return spans;
    }

    private JsonNode get(String pathAndQuery) {
        return parse(send(pathAndQuery));
    }

    private static JsonNode parse(HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            throw new IllegalStateException("Zipkin answered " + response.statusCode() + ": " + response.body());
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("Zipkin's answer is not JSON: " + response.body(), e);
        }
    }

    private int status(String path) {
        try {
            return send(path).statusCode();
        } catch (UncheckedIOException e) {
            return -1; // not listening yet
        }
    }

    private HttpResponse<String> send(String pathAndQuery) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base() + pathAndQuery))
                .timeout(Duration.ofSeconds(10)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + pathAndQuery + " from Zipkin failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted asking Zipkin", e);
        }
    }

    private String base() {
        return "http://127.0.0.1:" + port;
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
