package dev.kubeloop.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeloop.api.webhook.Admission;
import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.Validator;
import dev.kubeloop.testing.TestCertificate;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The webhook server over real TLS on loopback: what the API server sends is answered, what it
 * would never send is refused with the reason and leaves the server serving, the observer hears
 * every request, and a new certificate is served to new connections without a restart.
 */
class WebhookServerTest {

    private final List<String> heard = new CopyOnWriteArrayList<>();
    private final TestCertificate certificate = TestCertificate.create(Duration.ofHours(1));
    private WebhookServer server;
    private HttpClient client;

    private final Validator<Shelf> validator = new Validator<>() {
        @Override
        public Admission validateCreate(Shelf shelf, AdmissionContext context) {
            if (shelf.getSpec().getBooks() < 0) {
                throw new IllegalArgumentException("negative books");
            }
            return shelf.getSpec().getBooks() > 10 ? Admission.denied("too many books") : Admission.allowed();
        }
    };

    private final WebhookObserver observer = new WebhookObserver() {
        @Override
        public void serving(List<Webhook> webhooks) {
            heard.add("serving " + webhooks.size());
        }

        @Override
        public void requestStarted(Webhook webhook) {
            heard.add("started " + webhook.path());
        }

        @Override
        public void requestFinished(Webhook webhook, int status, long nanos) {
            heard.add("finished " + status + (nanos > 0 ? "" : " without time"));
        }

        @Override
        public void userCodeFailed(Webhook webhook, Throwable failure) {
            heard.add("failed " + failure.getMessage());
        }
    };

    @BeforeEach
    void start() throws Exception {
        Webhooks webhooks = Webhooks.builder(Reviews.SERIALIZATION).validator(Shelf.class, validator).build();
        ServerTls tls = ServerTls.of(certificate.keyManager(), certificate.certificate(), "TLS", null, null);
        server = WebhookServer.builder(webhooks, tls).address(InetAddress.getLoopbackAddress()).port(0).threads(2)
                .observer(observer).build();
        server.start();
        client = HttpClient.newBuilder().sslContext(certificate.trustingContext()).build();
    }

    @AfterEach
    void stop() {
        server.stop(Duration.ZERO); // HttpClient has no close() on Java 17: its threads are daemons
    }

    private HttpResponse<String> post(HttpClient with, String path, String contentType, byte[] body) throws Exception {
        return with.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + path))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] create(int books) {
        ObjectNode request = Reviews.admissionRequest("CREATE", "v2");
        request.set("object", Reviews.tree(Shelf.named("oak", books)));
        return Reviews.admission(request);
    }

    private static final String PATH = "/validate-kubeloop-dev-v2-shelf";

    @Test
    void anAdmissionReviewIsAnsweredOverTls() throws Exception {
        HttpResponse<String> allowed = post(client, PATH, "application/json", create(3));
        HttpResponse<String> denied = post(client, PATH, "application/json; charset=utf-8", create(11));

        assertThat(allowed.statusCode()).isEqualTo(200);
        assertThat(allowed.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(allowed.body()).contains("\"allowed\":true");
        assertThat(denied.body()).contains("\"allowed\":false", "too many books");
        // the observer hears the end of a request after its answer is written, so possibly after the
        // next request started: what is promised is serving first, then each request started and finished
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(heard).hasSize(5));
        assertThat(heard.get(0)).isEqualTo("serving 1");
        assertThat(heard.subList(1, 5)).containsExactlyInAnyOrder("started " + PATH, "finished 200",
                "started " + PATH, "finished 200");
        assertThat(heard.get(1)).isEqualTo("started " + PATH);
        assertThat(server.isRunning()).isTrue();
    }

    @Test
    void requestsTheApiServerWouldNeverSendAreRefusedWithTheReasonAndTheServerGoesOn() throws Exception {
        HttpResponse<String> get = client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port()
                + PATH)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Allow")).hasValue("POST");
        assertThat(get.body()).contains("POST an admission.k8s.io/v1 AdmissionReview to " + PATH);

        HttpResponse<String> yaml = post(client, PATH, "application/yaml", create(1));
        assertThat(yaml.statusCode()).isEqualTo(415);
        assertThat(yaml.body()).contains("expected application/json");

        HttpResponse<String> garbage = post(client, PATH, "application/json", "{\"kind\":".getBytes());
        assertThat(garbage.statusCode()).isEqualTo(400);
        assertThat(garbage.body()).contains("the body is not JSON").doesNotContain("\tat ");

        HttpResponse<String> huge = post(client, PATH, "application/json",
                new byte[WebhookHttpHandler.MAX_BODY_BYTES + 1]);
        assertThat(huge.statusCode()).isEqualTo(413);

        HttpResponse<String> elsewhere = post(client, "/mutate-kubeloop-dev-v2-shelf", "application/json", create(1));
        assertThat(elsewhere.statusCode()).isEqualTo(404);
        assertThat(elsewhere.body()).contains("this server serves " + PATH);

        HttpResponse<String> thrown = post(client, PATH, "application/json", create(-1));
        assertThat(thrown.body()).contains("\"allowed\":false", "negative books");

        assertThat(post(client, PATH, "application/json", create(2)).body()).contains("\"allowed\":true");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(heard).contains("failed negative books",
                "finished 405", "finished 415", "finished 400", "finished 413")
                .doesNotContain("started /mutate-kubeloop-dev-v2-shelf"));
    }

    @Test
    void aNewCertificateIsServedToNewConnectionsWithoutARestart() throws Exception {
        TestCertificate renewed = TestCertificate.create(Duration.ofHours(2));

        server.tls().update(renewed.keyManager(), renewed.certificate());

        HttpClient trustsTheRenewed = HttpClient.newBuilder().sslContext(renewed.trustingContext()).build();
        HttpClient trustsTheOld = HttpClient.newBuilder().sslContext(certificate.trustingContext()).build();
        assertThat(post(trustsTheRenewed, PATH, "application/json", create(1)).statusCode()).isEqualTo(200);
        assertThatThrownBy(() -> post(trustsTheOld, PATH, "application/json", create(1)))
                .isInstanceOf(SSLHandshakeException.class);
        assertThat(server.tls().certificate()).isEqualTo(renewed.certificate());
    }

    @Test
    void aStopWithNothingInFlightDoesNotWaitForTheGrace() {
        long start = System.nanoTime();
        server.stop(Duration.ofSeconds(60));

        // the JDK server waited out its whole delay on Java 17; a minute is far beyond any slowness
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        assertThat(server.isRunning()).isFalse();
    }

    @Test
    void aStopLetsTheRequestInFlightBeAnswered() throws Exception {
        CountDownLatch inValidator = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        server.stop(Duration.ZERO);
        Webhooks blocking = Webhooks.builder(Reviews.SERIALIZATION).validator(Shelf.class, new Validator<Shelf>() {
            @Override
            public Admission validateCreate(Shelf shelf, AdmissionContext context) {
                inValidator.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Admission.allowed();
            }
        }).build();
        server = WebhookServer.builder(blocking, server.tls()).address(InetAddress.getLoopbackAddress()).port(0)
                .threads(2).build();
        server.start();
        CompletableFuture<HttpResponse<String>> answer = client.sendAsync(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + server.port() + PATH)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(create(1))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(inValidator.await(30, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> server.stop(Duration.ofSeconds(60)));
        await().atMost(Duration.ofSeconds(30)).until(() -> !server.isRunning());
        assertThat(stopped).isNotDone();
        release.countDown();

        assertThat(answer.get(30, TimeUnit.SECONDS).body()).contains("\"allowed\":true");
        stopped.get(30, TimeUnit.SECONDS);
    }

    @Test
    void aStoppedServerNoLongerListens() throws Exception {
        int port = server.port();
        server.stop(Duration.ofSeconds(1));

        assertThat(server.isRunning()).isFalse();
        HttpClient fresh = HttpClient.newBuilder().sslContext(certificate.trustingContext())
                .connectTimeout(Duration.ofSeconds(5)).build();
        assertThatThrownBy(() -> fresh.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + PATH))
                .POST(HttpRequest.BodyPublishers.ofByteArray(create(1))).build(),
                HttpResponse.BodyHandlers.ofString())).isInstanceOfAny(ConnectException.class, IOException.class);
    }
}
