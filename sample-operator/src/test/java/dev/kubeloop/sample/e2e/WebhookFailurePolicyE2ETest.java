package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteTls;
import dev.kubeloop.sample.website.WebsiteValidator;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import dev.kubeloop.test.webhook.ClusterWebhooks;
import dev.kubeloop.test.webhook.TestCertificates;
import dev.kubeloop.webhook.ServerTls;
import dev.kubeloop.webhook.WebhookServer;
import dev.kubeloop.webhook.Webhooks;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * What the real API server does when the webhook does not answer, as the webhook configuration
 * says: with {@code failurePolicy: Fail} the request is refused, with {@code Ignore} it goes through
 * unchecked; a webhook that accepts the connection and never answers is given up on after
 * {@code timeoutSeconds}. The webhook server here is Kubeloop's, with the sample's validator, on
 * 127.0.0.1; "stopped" is the server stopped (connection refused) and "hung" a socket that accepts
 * and never answers.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml", properties = "sample.demo=off")
class WebhookFailurePolicyE2ETest {

    /** The kit's client with fabric8's retries of 5xx answers off: each call below is one request. */
    private KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    private final TestCertificates certificates = TestCertificates.forLoopback();
    private final List<Socket> held = new CopyOnWriteArrayList<>();
    private WebhookServer server;
    private ClusterWebhooks registered;
    private ServerSocket hung;
    private int site;

    @BeforeEach
    void oneRequestPerCall() {
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(kit.client().getConfiguration())
                .withRequestRetryBackoffLimit(0).build()).build();
    }

    @AfterEach
    void cleanUp() throws IOException {
        if (registered != null) {
            registered.close();
        }
        if (server != null) {
            server.stop(Duration.ZERO);
        }
        if (hung != null) {
            hung.close();
        }
        for (Socket socket : held) {
            socket.close();
        }
        client.close();
    }

    @Test
    void aStoppedWebhookRefusesRequestsWithFailAndLetsThemThroughWithIgnore() throws Exception {
        server = startServer();
        String url = "https://127.0.0.1:" + server.port();
        registered = register(url, new ClusterWebhooks.Options("Fail", 5));
        awaitValidation();

        server.stop(Duration.ZERO);

        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                () -> client.resource(valid()).create());
        assertThat(refused.getMessage()).contains("failed calling webhook \"validate.websites.sample.kubeloop.dev\"")
                .contains("connection refused");

        registered = register(url, new ClusterWebhooks.Options("Ignore", 5));
        kit.await("the API server lets Websites through unchecked", () -> created(valid()));
        assertThat(created(invalid())).as("nothing validates now, not even this").isTrue();
    }

    @Test
    void aHungWebhookIsGivenUpOnAfterTimeoutSeconds() throws Exception {
        hung = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!hung.isClosed()) {
                try {
                    held.add(hung.accept()); // accepts and never answers, not even the TLS handshake
                } catch (IOException closed) {
                    return;
                }
            }
        }, "e2e-hung-webhook");
        acceptor.setDaemon(true);
        acceptor.start();
        String url = "https://127.0.0.1:" + hung.getLocalPort();
        registered = register(url, new ClusterWebhooks.Options("Fail", 2));
        kit.await("the API server calls the hung webhook", () -> !held.isEmpty() || !created(valid()));

        long start = System.nanoTime();
        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                () -> client.resource(valid()).create());
        Duration waited = Duration.ofNanos(System.nanoTime() - start);

        assertThat(refused.getMessage()).contains("failed calling webhook \"validate.websites.sample.kubeloop.dev\"");
        assertThat(refused.getMessage()).containsAnyOf("deadline exceeded", "Timeout", "timeout");
        assertThat(waited).as("the API server waited for timeoutSeconds").isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        System.out.printf("[e2e] hung webhook, failurePolicy Fail, timeoutSeconds 2: refused after %d ms%n",
                waited.toMillis());

        registered = register(url, new ClusterWebhooks.Options("Ignore", 2));
        kit.await("the API server lets Websites through after the timeout", () -> created(valid()));
    }

    private WebhookServer startServer() throws Exception {
        Webhooks webhooks = Webhooks.builder(client.getKubernetesSerialization())
                .validator(Website.class, new WebsiteValidator()).build();
        ServerTls tls = ServerTls.of(certificates.keyManager(), certificates.serving(), "TLS", null, null);
        WebhookServer started = WebhookServer.builder(webhooks, tls).address(InetAddress.getLoopbackAddress()).port(0)
                .build();
        started.start();
        return started;
    }

    private ClusterWebhooks register(String url, ClusterWebhooks.Options options) {
        if (registered != null) {
            registered.close();
        }
        Webhooks validatorOnly = Webhooks.builder(client.getKubernetesSerialization())
                .validator(Website.class, new WebsiteValidator()).build();
        return ClusterWebhooks.register(client, validatorOnly, url, certificates.caBundle(), kit.namespace(), options);
    }

    private void awaitValidation() {
        kit.await("the API server calls the validating webhook", () -> {
            try {
                client.resource(invalid()).dryRun().create();
                return false;
            } catch (KubernetesClientException e) {
                return e.getCode() == 403;
            }
        });
    }

    private boolean created(Website website) {
        try {
            client.resource(website).create();
            return true;
        } catch (KubernetesClientException e) {
            return false;
        }
    }

    private Website valid() {
        return Sites.website(kit.namespace(), "site-" + (++site), "<p>page</p>");
    }

    private Website invalid() {
        Website website = valid();
        website.getSpec().setTls(new WebsiteTls());
        return website;
    }
}
