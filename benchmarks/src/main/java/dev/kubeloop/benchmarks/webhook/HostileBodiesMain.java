package dev.kubeloop.benchmarks.webhook;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The "four POSTs kill the operator" harness: {@link WebhookBenchServer} in a JVM with the chart's
 * settings ({@code -Xmx384m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError}), then per round
 * {@code concurrent} AdmissionReviews at once, each a valid envelope around 7 MiB of
 * {@code [[],[],...]} (a tree of it costs ~20 times that), while one ordinary review is sent
 * every 100 ms. Prints per round the answers by status, the ordinary reviews answered, and the
 * server's heap after the round (jcmd GC.heap_info); the server must still be alive at the end.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.kubeloop.benchmarks.webhook.HostileBodiesMain [rounds] [concurrent]
 * </pre>
 */
public final class HostileBodiesMain {

    private static final int SIZE = 7 * 1024 * 1024 - 1024;

    private HostileBodiesMain() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int concurrent = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process server = new ProcessBuilder(java.toString(), "-Xmx384m", "-XX:+UseSerialGC",
                "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
                WebhookBenchServer.class.getName()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            String[] ready = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))
                    .readLine().split(" ");
            URI uri = URI.create("https://127.0.0.1:" + ready[1] + "/validate-sample-kubeloop-dev-v1-website");
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .sslContext(AdmissionLatencyMain.trusting(Path.of(ready[2]))).build();
            byte[] hostile = hostile();
            byte[] review = AdmissionLatencyMain.review();
            System.out.printf(Locale.ROOT, "# %d concurrent bodies of %d bytes per round, server -Xmx384m SerialGC, "
                    + "load at start %s%n", concurrent, hostile.length, AdmissionLatencyMain.load());
            System.out.println("| round | hostile answers by status | ordinary sent | ordinary answered 200 "
                    + "| server heap used after (KiB) | server alive | load |");
            System.out.println("|---:|---|---:|---:|---:|---|---|");
            for (int round = 1; round <= rounds && server.isAlive(); round++) {
                List<CompletableFuture<Integer>> sent = new ArrayList<>();
                for (int i = 0; i < concurrent; i++) {
                    sent.add(client.sendAsync(request(uri, hostile), HttpResponse.BodyHandlers.discarding())
                            .thenApply(HttpResponse::statusCode).exceptionally(failure -> -1));
                }
                int ordinarySent = 0;
                List<CompletableFuture<Integer>> ordinary = new ArrayList<>();
                while (!CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).isDone()) {
                    ordinary.add(client.sendAsync(request(uri, review),
                            HttpResponse.BodyHandlers.discarding()).thenApply(HttpResponse::statusCode)
                            .exceptionally(failure -> -1));
                    ordinarySent++;
                    TimeUnit.MILLISECONDS.sleep(100);
                }
                Map<Integer, Integer> statuses = new TreeMap<>();
                sent.forEach(answer -> statuses.merge(answer.join(), 1, Integer::sum));
                long answered = ordinary.stream().map(answer -> {
                    try {
                        return answer.get(30, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        return -1;
                    }
                }).filter(status -> status == 200).count();
                System.out.printf(Locale.ROOT, "| %d | %s | %d | %d | %s | %s | %s |%n", round, statuses, ordinarySent,
                        answered, heapUsed(server.pid()), server.isAlive(), AdmissionLatencyMain.load());
            }
        } finally {
            server.getOutputStream().close();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    private static HttpRequest request(URI uri, byte[] body) {
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    }

    private static byte[] hostile() {
        StringBuilder body = new StringBuilder(SIZE + 512).append("{\"apiVersion\":\"admission.k8s.io/v1\",")
                .append("\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\",\"operation\":\"CREATE\",")
                .append("\"object\":{\"apiVersion\":\"sample.kubeloop.dev/v1\",\"kind\":\"Website\",\"spec\":{\"x\":[");
        while (body.length() < SIZE) {
            body.append("[],");
        }
        return body.append("[]]}}}}").toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** The "used" figure of {@code jcmd <pid> GC.heap_info}'s first line, in KiB. */
    private static String heapUsed(long pid) {
        try {
            Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(pid), "GC.heap_info").redirectErrorStream(true).start();
            String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            jcmd.waitFor(30, TimeUnit.SECONDS);
            java.util.regex.Matcher used = java.util.regex.Pattern.compile("used (\\d+)K").matcher(out);
            return used.find() ? used.group(1) : "?";
        } catch (Exception e) {
            return "?";
        }
    }
}
