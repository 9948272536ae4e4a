package dev.kubeloop.test;

import dev.kubeloop.test.webhook.ClusterWebhooks;
import dev.kubeloop.test.webhook.TestCertificates;
import dev.kubeloop.webhook.WebhookServer;
import dev.kubeloop.webhook.Webhooks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;

/**
 * {@code @KubeloopTest(webhooks = true)}: the application's webhook server on 127.0.0.1 with a
 * throwaway certificate, and, against a real cluster, registered with it for the test namespace
 * once it listens ({@link ClusterWebhooks}); unregistered before it stops.
 *
 * <p>Phase: between the webhook server's (which starts first) and the controllers'. State
 * ownership: {@code registered} is written by start and stop, which Spring calls from one thread.
 */
final class TestWebhookServer implements SmartLifecycle {

    static final String BUNDLE = "kubeloop-test-webhook";

    private final ConfigurableApplicationContext context;
    private final TestCluster cluster;
    private final TestCertificates certificates;
    private volatile ClusterWebhooks registered;

    private TestWebhookServer(ConfigurableApplicationContext context, TestCluster cluster,
            TestCertificates certificates) {
        this.context = context;
        this.cluster = cluster;
        this.certificates = certificates;
    }

    /** Sets the webhook properties and the SSL bundle, and registers the lifecycle bean. */
    static void configure(ConfigurableApplicationContext context, TestCluster cluster) {
        TestCertificates certificates = TestCertificates.forLoopback();
        Path directory;
        try {
            directory = certificates.writeTo(Files.createTempDirectory("kubeloop-test-webhook"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TestPropertyValues.of("kubeloop.webhook.enabled=true", "kubeloop.webhook.port=0",
                "kubeloop.webhook.address=127.0.0.1", "kubeloop.webhook.ssl-bundle=" + BUNDLE,
                "spring.ssl.bundle.pem." + BUNDLE + ".keystore.certificate=" + directory.resolve("tls.crt").toUri(),
                "spring.ssl.bundle.pem." + BUNDLE + ".keystore.private-key=" + directory.resolve("tls.key").toUri())
                .applyTo(context);
        context.getBeanFactory().registerSingleton("kubeloopTestWebhookServer",
                new TestWebhookServer(context, cluster, certificates));
    }

    @Override
    public void start() {
        if (!cluster.real()) {
            return; // the mock server calls no webhooks: the server is there for kit.webhooks() and HTTPS calls
        }
        WebhookServer server = context.getBeanProvider(WebhookServer.class).getIfAvailable();
        if (server == null) {
            return;
        }
        registered = ClusterWebhooks.register(cluster.client(), context.getBean(Webhooks.class),
                "https://127.0.0.1:" + server.port(), certificates.caBundle(), cluster.namespace(),
                ClusterWebhooks.Options.defaults());
    }

    @Override
    public void stop() {
        ClusterWebhooks current = registered;
        registered = null;
        if (current != null) {
            current.close();
        }
    }

    @Override
    public boolean isRunning() {
        return registered != null || !cluster.real();
    }

    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 512 - 128;
    }

    TestCertificates certificates() {
        return certificates;
    }
}
