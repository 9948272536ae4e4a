package dev.kubeloop.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeloop.api.webhook.Validator;
import dev.kubeloop.testing.TestCertificate;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hostile clients on loopback against the webhook server, as docs/security.md lists them: each
 * attack is held open while a legitimate AdmissionReview is sent, and that one must be answered;
 * the server closes what it must at its deadlines and counts why. Bounded: every socket has a
 * read timeout, every wait a deadline, every attacker is closed after its case.
 */
class WebhookServerAdversarialTest {

    private static final String PATH = "/validate-kubeloop-dev-v2-shelf";
    /** Longer than any answer takes on a loaded machine; the old server never answered at all. */
    private static final Duration ANSWERED_WITHIN = Duration.ofSeconds(30);

    private final TestCertificate certificate = TestCertificate.create(Duration.ofHours(1));
    private final List<Socket> attackers = new ArrayList<>();
    private final Validator<Shelf> allowAll = new Validator<>() {
    };
    private WebhookServer server;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        client = HttpClient.newBuilder().sslContext(certificate.trustingContext()).build();
    }

    /**
     * A server with {@code configured}'s limits, after a request answered by one with the defaults:
     * the first request of a JVM loads classes for seconds on a loaded machine, longer than the
     * short deadlines some cases set.
     */
    private void serve(java.util.function.UnaryOperator<WebhookServer.Builder> configured) throws Exception {
        server = build(builder -> builder);
        server.start();
        assertALegitimateRequestIsAnswered();
        server.stop(Duration.ZERO);
        server = build(configured);
        server.start();
    }

    private WebhookServer build(java.util.function.UnaryOperator<WebhookServer.Builder> configured) throws Exception {
        Webhooks webhooks = Webhooks.builder(Reviews.SERIALIZATION).validator(Shelf.class, allowAll).build();
        ServerTls tls = ServerTls.of(certificate.keyManager(), certificate.certificate(), "TLS",
                null, null);
        return configured.apply(WebhookServer.builder(webhooks, tls).address(InetAddress.getLoopbackAddress())
                .port(0).threads(2)).build();
    }

    private void serve() throws Exception {
        serve(builder -> builder);
    }

    @AfterEach
    void stop() throws Exception {
        for (Socket socket : attackers) {
            socket.close();
        }
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    private Socket tcp() throws Exception {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
        socket.setSoTimeout(30_000);
        attackers.add(socket);
        return socket;
    }

    private SSLSocket tls() throws Exception {
        SSLSocket socket = (SSLSocket) certificate.trustingContext().getSocketFactory()
                .createSocket(InetAddress.getLoopbackAddress(), server.port());
        socket.setSoTimeout(30_000);
        attackers.add(socket);
        socket.startHandshake();
        return socket;
    }

    private static void send(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Everything the server sends until it closes the connection (or 30 s pass: then the test fails). */
    private static String readUntilClosed(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                read.write(buffer, 0, n);
            }
        } catch (SocketException reset) {
            // closed with unread input: a reset after the answer; what was read stands
        }
        return read.toString(StandardCharsets.ISO_8859_1);
    }

    private HttpResponse<String> legitimate() throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + PATH))
                .timeout(ANSWERED_WITHIN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(create())).build(), HttpResponse.BodyHandlers.ofString());
    }

    private void assertALegitimateRequestIsAnswered() throws Exception {
        HttpResponse<String> response = legitimate();
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"allowed\":true");
    }

    private static byte[] create() {
        var request = Reviews.admissionRequest("CREATE", "v2");
        request.set("object", Reviews.tree(Shelf.named("oak", 1)));
        return Reviews.admission(request);
    }

    private static String headers(String path, long contentLength) {
        return "POST " + path + " HTTP/1.1\r\nHost: webhook\r\nContent-Type: application/json\r\nContent-Length: "
                + contentLength + "\r\n\r\n";
    }

    @Test
    void slowTlsHandshakesDoNotBlockOtherClients() throws Exception {
        serve();
        for (int i = 0; i < 200; i++) {
            send(tcp(), "\u0016"); // the first byte of a ClientHello record, and then nothing
        }
        // the kernel has accepted them; wait until the server holds every one in its handshake
        await().atMost(Duration.ofSeconds(30)).alias("the server holds 200 handshakes")
                .until(() -> server.stats().handshakesInProgress() >= 200);

        assertALegitimateRequestIsAnswered();
        assertThat(server.stats().handshakesInProgress()).isGreaterThanOrEqualTo(200);
    }

    @Test
    void slowHeadersAndSlowBodiesDoNotBlockOtherClients() throws Exception {
        serve();
        for (int i = 0; i < 20; i++) {
            send(tls(), "POST " + PATH + " HTTP/1.1\r\nHost: webhook\r\n"); // and no end of the headers
            send(tls(), headers(PATH, 1000) + "{\"kind\":"); // and no more of the body
            send(tls(), headers(PATH, WebhookHttpHandler.MAX_BODY_BYTES) + "["); // holding budget
        }

        assertALegitimateRequestIsAnswered();
    }

    @Test
    void clientsTooSlowAreClosedAtTheirDeadlinesAndCounted() throws Exception {
        // the idle timeout longest: an attacker's request must begin after its handshake, before it
        serve(builder -> builder.handshakeTimeout(Duration.ofSeconds(2)).requestTimeout(Duration.ofSeconds(1))
                .idleTimeout(Duration.ofSeconds(4)));
        Socket handshaking = tcp();
        send(handshaking, "\u0016");
        Socket silent = tcp();
        SSLSocket slowHeaders = tls();
        send(slowHeaders, "POST " + PATH + " HTTP/1.1\r\nHost: webhook\r\n");
        SSLSocket slowBody = tls();
        send(slowBody, headers(PATH, 1000) + "{");
        SSLSocket idle = tls();

        assertThat(readUntilClosed(handshaking)).isEmpty();
        assertThat(readUntilClosed(silent)).isEmpty();
        assertThat(readUntilClosed(slowHeaders)).startsWith("HTTP/1.1 408 ")
                .containsIgnoringCase("Connection: close");
        assertThat(readUntilClosed(slowBody)).startsWith("HTTP/1.1 408 ");
        assertThat(readUntilClosed(idle)).isEmpty();
        WebhookServerStats stats = server.stats();
        assertThat(stats.closed(ConnectionEnd.HANDSHAKE_TIMEOUT)).isEqualTo(2);
        assertThat(stats.closed(ConnectionEnd.REQUEST_TIMEOUT)).isEqualTo(2);
        assertThat(stats.closed(ConnectionEnd.IDLE_TIMEOUT)).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(stats.handshakesInProgress()).isZero();
            assertThat(stats.connections()).isZero();
        });
    }

    @Test
    void atTheConnectionLimitTheOldestConnectionNotServingARequestMakesRoom() throws Exception {
        serve(builder -> builder.maxConnections(20));
        for (int i = 0; i < 40; i++) {
            tcp(); // connected, silent
        }
        // Each event loop activates its own channels, so the server's order is not the kernel's
        // accept order: a request sent while attackers are still being activated may itself be
        // the oldest handshake when a later one arrives. Eviction is by the server's order; wait
        // until it has seen all 40 (20 made room for the 20 after the limit).
        await().atMost(Duration.ofSeconds(30)).alias("the server saw all 40 connections")
                .until(() -> server.stats().closed(ConnectionEnd.EVICTED) == 20);

        assertALegitimateRequestIsAnswered();
        assertThat(server.stats().closed(ConnectionEnd.EVICTED)).as(server.stats()::toString).isEqualTo(21);
        await().atMost(Duration.ofSeconds(10)).until(() -> server.stats().connections() <= 20);
    }

    @Test
    void plainHttpIsAnsweredAsGoAnswersIt() throws Exception {
        serve();
        Socket plain = tcp();
        send(plain, "POST " + PATH + " HTTP/1.1\r\nHost: webhook\r\n\r\n");

        assertThat(readUntilClosed(plain)).isEqualTo("HTTP/1.0 400 Bad Request\r\n\r\n"
                + "Client sent an HTTP request to an HTTPS server.\n");
        assertThat(server.stats().closed(ConnectionEnd.PLAIN_HTTP)).isEqualTo(1);
        assertALegitimateRequestIsAnswered();
    }

    @Test
    void malformedAndOversizedRequestsAreRefusedWithTheReason() throws Exception {
        serve();
        SSLSocket longLine = tls();
        send(longLine, "POST /" + "a".repeat(8192) + " HTTP/1.1\r\nHost: webhook\r\n\r\n");
        SSLSocket hugeHeaders = tls();
        send(hugeHeaders, "POST " + PATH + " HTTP/1.1\r\nHost: webhook\r\nX-Big: " + "b".repeat(64 * 1024)
                + "\r\n\r\n");
        SSLSocket garbage = tls();
        send(garbage, "\u0000\u0001\u0002 nonsense\r\n\r\n");
        SSLSocket declaredHuge = tls();
        send(declaredHuge, headers(PATH, 1L << 40)); // a terabyte declared, nothing sent
        Socket notTls = tcp();
        send(notTls, "\u0000\u00ff\u0013garbage");

        assertThat(readUntilClosed(longLine)).startsWith("HTTP/1.1 414 ");
        assertThat(readUntilClosed(hugeHeaders)).startsWith("HTTP/1.1 431 ");
        assertThat(readUntilClosed(garbage)).startsWith("HTTP/1.1 400 ");
        assertThat(readUntilClosed(notTls)).isEmpty();
        assertThat(read(declaredHuge)).startsWith("HTTP/1.1 413 ");
        assertThat(server.stats().closed(ConnectionEnd.MALFORMED)).isEqualTo(3);
        assertALegitimateRequestIsAnswered();
    }

    /** The status line and headers of one answer, without waiting for the connection to close. */
    private static String read(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int next = in.read();
            if (next < 0) {
                break;
            }
            head.append((char) next);
        }
        return head.toString();
    }

    @Test
    void largeBodiesBeyondTheBudgetAreRefusedWithoutHoldingThem() throws Exception {
        long budget = 512 * 1024;
        // deadlines long: a loaded machine may take seconds to send these, and they are not what this case is about
        serve(builder -> builder.bodyBudget(budget).handshakeTimeout(Duration.ofSeconds(60))
                .requestTimeout(Duration.ofSeconds(60)));
        byte[] nested = hostileBody(128 * 1024);
        List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            sent.add(client.sendAsync(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + PATH))
                    .timeout(ANSWERED_WITHIN).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(nested)).build(), HttpResponse.BodyHandlers.ofString()));
        }

        assertALegitimateRequestIsAnswered();
        List<Integer> statuses = new ArrayList<>();
        for (var response : sent) {
            try {
                statuses.add(response.get(60, java.util.concurrent.TimeUnit.SECONDS).statusCode());
            } catch (java.util.concurrent.ExecutionException e) {
                throw new AssertionError("not answered: " + e.getCause() + "; server: " + server.stats(), e);
            }
        }
        assertThat(statuses).allMatch(status -> status == 200 || status == 400 || status == 413 || status == 503);
        assertThat(server.budget().peak()).isLessThanOrEqualTo(budget);
        assertThat(server.budget().inUse()).isZero();
        assertALegitimateRequestIsAnswered();
    }

    /**
     * One valid review of 7 MiB of {@code [[],[],...]} took a 384 MiB heap to OutOfMemoryError on an
     * idle machine (HostileBodiesMain): its 2.4 million array nodes. Weighed by its values before any
     * tree is built, it is refused with the reason; an ordinary body of the same size is not.
     */
    @Test
    void aReviewDenserThanOrdinaryJsonAndHeavierThanTheBudgetIsRefusedBeforeItsTreeIsBuilt() throws Exception {
        serve(builder -> builder.handshakeTimeout(Duration.ofSeconds(60)).requestTimeout(Duration.ofSeconds(60)));
        byte[] dense = hostileBody(WebhookHttpHandler.MAX_BODY_BYTES - 1024);

        HttpResponse<String> refused = client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
                + server.port() + PATH)).timeout(ANSWERED_WITHIN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(dense)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(refused.statusCode()).isEqualTo(413);
        assertThat(refused.body()).contains("JSON values", "kubeloop.webhook.body-budget");
        assertThat(server.budget().inUse()).isZero();
        assertALegitimateRequestIsAnswered();
    }

    /** An AdmissionReview envelope around {@code size} bytes of {@code [[],[],...]}: cheap to send, costly to parse. */
    static byte[] hostileBody(int size) {
        StringBuilder body = new StringBuilder(size + 64).append("{\"apiVersion\":\"admission.k8s.io/v1\",")
                .append("\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\",\"object\":[");
        while (body.length() < size - 8) {
            body.append("[],");
        }
        return body.append("[]]}}").toString().getBytes(StandardCharsets.US_ASCII);
    }
}
