package dev.kubeloop.benchmarks.webhook;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Admission latency of Kubeloop's webhook server under load on loopback. Starts
 * {@link WebhookBenchServer} in a JVM of its own, then, per rate and round, sends AdmissionReviews
 * (CREATE of a realistic {@link BenchWebsite}, about 4 KiB) to its validating webhook at a fixed
 * rate, open loop: each request is due at its slot whether or not earlier ones have been answered,
 * and its latency is counted from that slot (no coordinated omission). The client is the JDK's
 * HttpClient (HTTP/1.1 over TLS with keep-alive, as the API server's Go client talks to a server
 * without HTTP/2). 10 s of warm-up at the rate, then the measured window.
 *
 * <p>With {@code -Dslow.clients=N} every round is measured twice: alone, then while
 * {@link SlowClients} holds N connections sending a ClientHello a byte a second (the attack that
 * took the JDK-based server down; the server closes them at its handshake timeout and they come
 * back at once).
 *
 * <pre>
 * java [-Dslow.clients=200] -cp benchmarks/target/benchmarks.jar dev.kubeloop.benchmarks.webhook.AdmissionLatencyMain [seconds] [rounds] [rates...]
 * </pre>
 */
public final class AdmissionLatencyMain {

    private AdmissionLatencyMain() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int[] rates = args.length > 2 ? Arrays.stream(args, 2, args.length).mapToInt(Integer::parseInt).toArray()
                : new int[] {100, 500, 2000};
        Process server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), WebhookBenchServer.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            String[] ready = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))
                    .readLine().split(" ");
            URI uri = URI.create("https://127.0.0.1:" + ready[1] + "/validate-sample-kubeloop-dev-v1-website");
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .sslContext(trusting(Path.of(ready[2]))).build();
            byte[] body = review();
            System.out.printf(Locale.ROOT, "# AdmissionReview %d bytes, %d s per round, %d rounds, load at start %s%n",
                    body.length, seconds, rounds, load());
            int slow = Integer.getInteger("slow.clients", 0);
            System.out.println("| rate (req/s) | slow clients | round | sent | answered | errors | p50 (ms) | p99 (ms) "
                    + "| max (ms) | load |");
            System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
            for (int rate : rates) {
                run(client, uri, body, rate, 10); // warm-up at the rate
                for (int round = 1; round <= rounds; round++) {
                    // alternating, so that a machine whose load changes weighs on both alike
                    for (int clients : slow > 0 ? new int[] {0, slow} : new int[] {0}) {
                        SlowClients attack = clients > 0 ? new SlowClients(uri.getPort(), clients) : null;
                        try {
                            Result result = run(client, uri, body, rate, seconds);
                            System.out.printf(Locale.ROOT, "| %d | %d | %d | %d | %d | %d | %.2f | %.2f | %.2f | %s |%n",
                                    rate, clients, round, result.sent, result.latencies.length, result.errors,
                                    result.percentile(50), result.percentile(99), result.percentile(100), load());
                        } finally {
                            if (attack != null) {
                                attack.close();
                            }
                        }
                    }
                }
            }
        } finally {
            server.getOutputStream().close();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    /** Latencies in nanoseconds, sorted. */
    private record Result(int sent, int errors, long[] latencies) {
        double percentile(double p) {
            if (latencies.length == 0) {
                return Double.NaN;
            }
            int index = (int) Math.min(latencies.length - 1, Math.ceil(p / 100.0 * latencies.length) - 1);
            return latencies[Math.max(0, index)] / 1_000_000.0;
        }
    }

    private static Result run(HttpClient client, URI uri, byte[] body, int rate, int seconds) throws Exception {
        int total = rate * seconds;
        long[] latencies = new long[total];
        List<CompletableFuture<?>> pending = new ArrayList<>(total);
        Arrays.fill(latencies, -1); // unanswered (or failed) requests are errors, not latencies
        long start = System.nanoTime() + 50_000_000L;
        long interval = 1_000_000_000L / rate;
        for (int i = 0; i < total; i++) {
            long due = start + i * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait); // open loop: the slot does not wait for answers
            }
            int slot = i;
            HttpRequest request = HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
            pending.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete(
                    (response, failure) -> {
                        if (failure == null && response.statusCode() == 200) {
                            latencies[slot] = System.nanoTime() - due;
                        }
                    }));
        }
        try {
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).handle((ok, failure) -> null)
                    .get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            // requests still unanswered a minute after the last was sent count as errors
        }
        long[] measured = Arrays.stream(latencies).filter(latency -> latency >= 0).sorted().toArray();
        return new Result(total, total - measured.length, measured);
    }

    static byte[] review() {
        KubernetesSerialization serialization = new KubernetesSerialization(
                new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES), true);
        String object = serialization.asJson(BenchWebsite.realistic("shop-front"));
        return ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
                + "\"uid\":\"705ab4f5-6393-11e8-b7cc-42010a800002\","
                + "\"kind\":{\"group\":\"sample.kubeloop.dev\",\"version\":\"v1\",\"kind\":\"Website\"},"
                + "\"resource\":{\"group\":\"sample.kubeloop.dev\",\"version\":\"v1\",\"resource\":\"websites\"},"
                + "\"requestKind\":{\"group\":\"sample.kubeloop.dev\",\"version\":\"v1\",\"kind\":\"Website\"},"
                + "\"name\":\"shop-front\",\"namespace\":\"shop\",\"operation\":\"CREATE\","
                + "\"userInfo\":{\"username\":\"alice\",\"groups\":[\"system:authenticated\"]},"
                + "\"object\":" + object + ",\"oldObject\":null,\"dryRun\":false,"
                + "\"options\":{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"CreateOptions\"}}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    static SSLContext trusting(Path caFile) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caFile)) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (Exception e) {
            return "?";
        }
    }
}
