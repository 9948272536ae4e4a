package dev.kubeloop.autoconfigure.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeloop.api.webhook.SpokeConverter;
import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.autoconfigure.controller.KubeloopLifecycle;
import dev.kubeloop.autoconfigure.scan.ScanningApplication;
import dev.kubeloop.health.WebhookHealthIndicator;
import dev.kubeloop.metrics.WebhookMetrics;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.Eventually;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.TestCertificate;
import dev.kubeloop.testing.Widget;
import dev.kubeloop.testing.WidgetValidator;
import dev.kubeloop.webhook.Shelf;
import dev.kubeloop.webhook.ShelfV1;
import dev.kubeloop.webhook.WebhookServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Configuration;

/**
 * The webhook server as the auto-configuration runs it: from a validator bean and an SSL bundle of
 * PEM files, on its own port, counted with controller-runtime's metric names, healthy while it
 * serves an unexpired certificate, and serving a renewed certificate once its files change.
 */
class KubeloopWebhookAutoConfigurationTest {

    private static MockCluster cluster;

    @TempDir
    Path certificates;

    @BeforeAll
    static void startCluster() {
        cluster = MockCluster.withWidgetCrd();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    /** Without any certificate configured. */
    private static ApplicationContextRunner bare() {
        return bare(cluster);
    }

    /** On {@code apiServer}; the context closes its client. */
    private static ApplicationContextRunner bare(MockCluster apiServer) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class, SslAutoConfiguration.class,
                        KubeloopWebhookAutoConfiguration.class))
                .withBean(KubernetesClient.class, apiServer::client)
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new);
    }

    private ApplicationContextRunner runner() {
        return withCertificate(bare());
    }

    private ApplicationContextRunner withCertificate(ApplicationContextRunner runner) {
        return runner
                .withPropertyValues("kubeloop.webhook.port=0", "kubeloop.webhook.address=127.0.0.1",
                        "spring.ssl.bundle.pem.webhook.keystore.certificate=" + certificates.resolve("tls.crt").toUri(),
                        "spring.ssl.bundle.pem.webhook.keystore.private-key=" + certificates.resolve("tls.key").toUri(),
                        "spring.ssl.bundle.pem.webhook.reload-on-update=true",
                        "spring.ssl.bundle.watch.file.quiet-period=100ms");
    }

    private static HttpResponse<String> createWidget(WebhookServer server, TestCertificate trusted, int size)
            throws Exception {
        Widget widget = Widget.named("test", "w");
        widget.getSpec().setSize(size);
        String review = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
                + "\"uid\":\"u-1\",\"kind\":{\"group\":\"kubeloop.dev\",\"version\":\"v1\",\"kind\":\"Widget\"},"
                + "\"operation\":\"CREATE\",\"namespace\":\"test\",\"name\":\"w\",\"object\":"
                + cluster.client().getKubernetesSerialization().asJson(widget) + "}}";
        return HttpClient.newBuilder().sslContext(trusted.trustingContext()).build().send(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + server.port() + "/validate-kubeloop-dev-v1-widget"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(review)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aValidatorBeanIsServedOverTlsCountedAndHealthy() {
        TestCertificate certificate = TestCertificate.create(Duration.ofHours(1));
        certificate.writeTo(certificates);
        runner().withBean(WidgetValidator.class).run(context -> {
            assertThat(context).hasNotFailed();
            WebhookServer server = context.getBean(WebhookServer.class);
            assertThat(server.isRunning()).isTrue();
            assertThat(server.paths()).containsExactly("/validate-kubeloop-dev-v1-widget");

            HttpResponse<String> denied = createWidget(server, certificate, 11);
            assertThat(denied.statusCode()).isEqualTo(200);
            assertThat(denied.body()).contains("\"allowed\":false", "spec.size must be at most 10");

            MeterRegistry registry = context.getBean(MeterRegistry.class);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(registry
                    .get(WebhookMetrics.REQUESTS_TOTAL).tag("webhook", "/validate-kubeloop-dev-v1-widget")
                    .tag("code", "200").counter().count()).isEqualTo(1.0));
            assertThat(registry.get(WebhookMetrics.LATENCY).tag("webhook", "/validate-kubeloop-dev-v1-widget").timer()
                    .count()).isEqualTo(1);
            assertThat(registry.get(WebhookMetrics.IN_FLIGHT).tag("webhook", "/validate-kubeloop-dev-v1-widget")
                    .gauge().value()).isZero();
            assertThat(registry.get(WebhookMetrics.PANICS).counter().count()).isZero();

            var health = context.getBean(WebhookHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("port", server.port()).containsKey("certificateNotAfter")
                    .doesNotContainKey("certificate");
        });
    }

    @Test
    void aRenewedCertificateIsServedOnceItsFilesChange() {
        TestCertificate first = TestCertificate.create(Duration.ofHours(1));
        first.writeTo(certificates);
        runner().withBean(WidgetValidator.class).run(context -> {
            WebhookServer server = context.getBean(WebhookServer.class);
            assertThat(createWidget(server, first, 1).statusCode()).isEqualTo(200);

            TestCertificate renewed = TestCertificate.create(Duration.ofHours(2));
            renewed.writeTo(certificates); // as the kubelet updates a Secret's volume after cert-manager renewed it

            await("the renewed certificate served").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions().until(() -> createWidget(server, renewed, 1).statusCode() == 200);
            assertThat(server.tls().certificate()).isEqualTo(renewed.certificate());
        });
    }

    /**
     * How the kubelet updates a Secret volume: the files are symlinks through {@code ..data}, a
     * symlink to a timestamped directory, swapped by an atomic rename when the Secret changes.
     */
    @Test
    void aRenewedCertificateIsServedWhenTheSecretVolumeIsSwappedAsTheKubeletDoes() throws Exception {
        TestCertificate first = TestCertificate.create(Duration.ofHours(1));
        first.writeTo(certificates.resolve("..2026_01_01_first"));
        java.nio.file.Files.createSymbolicLink(certificates.resolve("..data"), Path.of("..2026_01_01_first"));
        java.nio.file.Files.createSymbolicLink(certificates.resolve("tls.crt"), Path.of("..data/tls.crt"));
        java.nio.file.Files.createSymbolicLink(certificates.resolve("tls.key"), Path.of("..data/tls.key"));
        runner().withBean(WidgetValidator.class).run(context -> {
            WebhookServer server = context.getBean(WebhookServer.class);
            assertThat(createWidget(server, first, 1).statusCode()).isEqualTo(200);

            TestCertificate renewed = TestCertificate.create(Duration.ofHours(2));
            renewed.writeTo(certificates.resolve("..2026_01_02_renewed"));
            Path next = certificates.resolve("..data_tmp");
            java.nio.file.Files.createSymbolicLink(next, Path.of("..2026_01_02_renewed"));
            java.nio.file.Files.move(next, certificates.resolve("..data"),
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);

            await("the renewed certificate served").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions().until(() -> createWidget(server, renewed, 1).statusCode() == 200);
        });
    }

    @Test
    void noWebhookBeanMeansNoServerAndNoCertificateNeeded() {
        bare().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(WebhookServer.class);
        });
    }

    @Test
    void webhooksCanBeSwitchedOff() {
        bare().withBean(WidgetValidator.class).withPropertyValues("kubeloop.webhook.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(WebhookServer.class);
        });
    }

    @Test
    void aPortInUseFailsStartupNamingTheAddressAndTheProperty() throws Exception {
        TestCertificate.create(Duration.ofHours(1)).writeTo(certificates);
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            runner().withBean(WidgetValidator.class).withPropertyValues("kubeloop.webhook.port=" + taken.getLocalPort())
                    .run(context -> {
                        assertThat(context).hasFailed();
                        Throwable failure = context.getStartupFailure();
                        while (failure != null && !(failure instanceof KubeloopConfigurationException)) {
                            failure = failure.getCause();
                        }
                        assertThat(failure).isNotNull();
                        KubeloopConfigurationException analyzed = (KubeloopConfigurationException) failure;
                        assertThat(analyzed.description()).contains("cannot listen on 127.0.0.1:"
                                + taken.getLocalPort());
                        assertThat(analyzed.action()).contains("kubeloop.webhook.port");
                    });
        }
    }

    /**
     * The first lists of a converted kind may need this application's own conversion webhook (the
     * test kit points the CRD at it once it listens): the caches start after the server does, from
     * Kubeloop's lifecycle, not early with the manager bean.
     */
    @Test
    void anApplicationServingConversionsStartsItsCachesOnlyAfterItsWebhookServer() {
        TestCertificate.create(Duration.ofHours(1)).writeTo(certificates);
        // an API server of its own: these contexts run reconcilers, and close the client they were given
        try (MockCluster apiServer = MockCluster.withWidgetCrd()) {
            withCertificate(bare(apiServer)).withUserConfiguration(ScanningApplication.class, JustBeforeKubeloop.class)
                .withBean(ShelfConversion.class).run(context -> {
                    assertThat(context).hasNotFailed();
                    JustBeforeKubeloop before = context.getBean(JustBeforeKubeloop.class);
                    assertThat(before.webhookServerRunning).isTrue();
                    assertThat(before.anyInformerWatching).as("an informer started before the lifecycle").isFalse();
                    assertThat(context.getBean(ControllerManager.class).hasSynced()).isTrue();
                });
        }
    }

    /** Validators and defaulters are never called by a list: the caches start early, as without webhooks. */
    @Test
    void anApplicationServingOnlyAdmissionWebhooksStartsItsCachesEarly() {
        TestCertificate.create(Duration.ofHours(1)).writeTo(certificates);
        try (MockCluster apiServer = MockCluster.withWidgetCrd()) {
            withCertificate(bare(apiServer)).withUserConfiguration(ScanningApplication.class, JustBeforeKubeloop.class)
                .withPropertyValues("test.wait-for-caches=true").withBean(WidgetValidator.class).run(context -> {
                    assertThat(context).hasNotFailed();
                    // only the early start can have synced them before Kubeloop's lifecycle
                    assertThat(context.getBean(JustBeforeKubeloop.class).syncedBeforeKubeloop).isTrue();
                });
        }
    }

    /** A converter of the test's Shelf kind (hub {@code Shelf}, spoke {@code ShelfV1}). */
    static final class ShelfConversion implements SpokeConverter<Shelf, ShelfV1> {
        @Override
        public Shelf toHub(ShelfV1 spoke) {
            Shelf hub = new Shelf();
            hub.setMetadata(spoke.getMetadata());
            return hub;
        }

        @Override
        public ShelfV1 fromHub(Shelf hub) {
            ShelfV1 spoke = new ShelfV1();
            spoke.setMetadata(hub.getMetadata());
            return spoke;
        }
    }

    /**
     * Starts between the webhook server and Kubeloop's lifecycle and notes what had started by then;
     * with {@code test.wait-for-caches}, it first waits for the caches to sync, as a slower part of
     * the refresh would take its time.
     */
    @Configuration(proxyBeanMethods = false)
    static class JustBeforeKubeloop implements SmartLifecycle {
        private final ControllerManager manager;
        private final ObjectProvider<WebhookServer> server;
        private final boolean waitForCaches;
        private volatile boolean running;
        volatile boolean webhookServerRunning;
        volatile boolean anyInformerWatching;
        volatile boolean syncedBeforeKubeloop;

        JustBeforeKubeloop(ControllerManager manager, ObjectProvider<WebhookServer> server,
                @Value("${test.wait-for-caches:false}") boolean waitForCaches) {
            this.manager = manager;
            this.server = server;
            this.waitForCaches = waitForCaches;
        }

        @Override
        public void start() {
            webhookServerRunning = server.getObject().isRunning();
            if (waitForCaches) {
                Eventually.eventually().until(() -> manager.informers().stream().allMatch(InformerStatus::synced));
                syncedBeforeKubeloop = true;
            }
            anyInformerWatching = manager.informers().stream().anyMatch(InformerStatus::watching);
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return KubeloopLifecycle.PHASE - 1;
        }
    }

    @Test
    void aValidatorWhoseTypeCannotBeResolvedFailsStartupNamingTheBean() {
        TestCertificate.create(Duration.ofHours(1)).writeTo(certificates);
        runner().withBean("anyValidator", AnyValidator.class, AnyValidator::new).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("Bean 'anyValidator'")
                    .hasMessageContaining("whose resource type cannot be resolved");
        });
    }

    /** A validator of any type: which one, Kubeloop cannot tell. */
    static class AnyValidator<T extends io.fabric8.kubernetes.api.model.HasMetadata>
            implements dev.kubeloop.api.webhook.Validator<T> {
    }
}
