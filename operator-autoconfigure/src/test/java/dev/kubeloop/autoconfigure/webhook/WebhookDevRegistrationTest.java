package dev.kubeloop.autoconfigure.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.Widget;
import dev.kubeloop.testing.WidgetValidator;
import dev.kubeloop.webhook.ThrowawayCertificates;
import dev.kubeloop.webhook.WebhookServer;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;

/**
 * {@code kubeloop.webhook.dev-registration.enabled}: off by default; on, the webhooks are registered
 * at the server's port with the run's throwaway CA (no SSL bundle needed), a registration a killed
 * run left is replaced, all of it is removed when the application stops, and start-up fails inside
 * a cluster naming the property, or with the server switched off naming both properties. On the mock API server; WebhookDevRegistrationE2ETest has the
 * real API server call the process.
 */
class WebhookDevRegistrationTest {

    private static final String NAME = "kubeloop-dev-widgets-dev-box";

    private static MockCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = MockCluster.withWidgetCrd();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @AfterEach
    void removeLeftovers() {
        cluster.client().admissionRegistration().v1().validatingWebhookConfigurations().withName(NAME).delete();
    }

    private static ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class, SslAutoConfiguration.class,
                        KubeloopWebhookAutoConfiguration.class))
                // the context closes its client; the test reads with the cluster's own
                .withBean(KubernetesClient.class, () -> new KubernetesClientBuilder()
                        .withConfig(cluster.client().getConfiguration()).build())
                .withBean(WidgetValidator.class)
                .withPropertyValues("kubeloop.webhook.port=0", "kubeloop.webhook.address=127.0.0.1",
                        "spring.application.name=Widgets", "HOSTNAME=dev-box");
    }

    private static ValidatingWebhookConfiguration registration() {
        return cluster.client().admissionRegistration().v1().validatingWebhookConfigurations().withName(NAME).get();
    }

    @Test
    void offByDefault() {
        runner().run(context -> {
            assertThat(context).hasFailed(); // the SSL bundle is needed: no throwaway certificate without the switch
            assertThat(context.getStartupFailure()).hasStackTraceContaining("kubeloop.webhook.ssl-bundle");
            assertThat(registration()).isNull();
        });
        runner().withPropertyValues("kubeloop.webhook.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(WebhookDevRegistration.class);
            assertThat(registration()).isNull();
        });
    }

    @Test
    void registersTheWebhooksAtTheServersPortWithTheThrowawayCaAndRemovesThemAtStop() {
        runner().withPropertyValues("kubeloop.webhook.dev-registration.enabled=true").run(context -> {
            assertThat(context).hasNotFailed();
            WebhookServer server = context.getBean(WebhookServer.class);
            ThrowawayCertificates certificates = context.getBean(ThrowawayCertificates.class);
            assertThat(server.tls().certificate()).isEqualTo(certificates.serving());

            ValidatingWebhookConfiguration registered = registration();
            assertThat(registered.getMetadata().getLabels()).containsEntry(DevRegistrationName.LABEL, "dev-box");
            var webhook = registered.getWebhooks().get(0);
            assertThat(webhook.getClientConfig().getUrl())
                    .isEqualTo("https://127.0.0.1:" + server.port() + "/validate-kubeloop-dev-v1-widget");
            assertThat(webhook.getClientConfig().getService()).isNull();
            assertThat(webhook.getFailurePolicy()).isEqualTo("Ignore");
            assertThat(webhook.getNamespaceSelector()).isNull();

            // what the API server does: trust the caBundle, verify the host, post a review
            HttpResponse<String> denied = HttpClient.newBuilder()
                    .sslContext(trusting(webhook.getClientConfig().getCaBundle())).build()
                    .send(HttpRequest.newBuilder(URI.create(webhook.getClientConfig().getUrl()))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(review(11))).build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(denied.body()).contains("\"allowed\":false", "spec.size must be at most 10");
        });
        assertThat(registration()).as("removed at stop").isNull();
    }

    @Test
    void aRegistrationLeftByAKilledRunIsReplaced() {
        cluster.client().admissionRegistration().v1().validatingWebhookConfigurations().resource(
                new ValidatingWebhookConfigurationBuilder().withNewMetadata().withName(NAME).endMetadata()
                        .addNewWebhook().withName("validate.widget.kubeloop.dev").withNewClientConfig()
                        .withUrl("https://127.0.0.1:1/validate-kubeloop-dev-v1-widget").endClientConfig()
                        .withSideEffects("None").withAdmissionReviewVersions("v1").endWebhook().build()).create();

        runner().withPropertyValues("kubeloop.webhook.dev-registration.enabled=true").run(context -> {
            int port = context.getBean(WebhookServer.class).port();
            assertThat(registration().getWebhooks()).singleElement().satisfies(webhook -> assertThat(
                    webhook.getClientConfig().getUrl()).isEqualTo("https://127.0.0.1:" + port
                            + "/validate-kubeloop-dev-v1-widget"));
        });
        assertThat(registration()).isNull();
    }

    @Test
    void refusedInsideAClusterNamingTheProperty() {
        runner().withPropertyValues("kubeloop.webhook.dev-registration.enabled=true",
                "KUBERNETES_SERVICE_HOST=10.96.0.1").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("kubeloop.webhook.dev-registration.enabled=true is for development")
                    .hasMessageContaining("KUBERNETES_SERVICE_HOST is set");
            assertThat(registration()).isNull();
        });
    }

    @Test
    void withTheServerSwitchedOffStartUpFailsNamingBothPropertiesAndTheFix() {
        runner().withPropertyValues("kubeloop.webhook.dev-registration.enabled=true", "kubeloop.webhook.enabled=false")
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = analyze(context.getStartupFailure());
                    assertThat(analysis).as("the report for %s", context.getStartupFailure()).isNotNull();
                    assertThat(analysis.getCause()).isInstanceOf(KubeloopConfigurationException.class);
                    assertThat(analysis.getDescription()).contains("kubeloop.webhook.dev-registration.enabled=true",
                            "kubeloop.webhook.enabled=false");
                    assertThat(analysis.getAction()).contains(
                            "kubeloop.webhook.enabled: ${kubeloop.webhook.dev-registration.enabled:false}",
                            "set kubeloop.webhook.dev-registration.enabled to false");
                    assertThat(registration()).isNull();
                });
    }

    @Test
    void aValueThatIsNotABooleanFailsNamingTheProperty() {
        runner().withPropertyValues("kubeloop.webhook.dev-registration.enabled=yes please").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining(
                    "Property kubeloop.webhook.dev-registration.enabled has an invalid value 'yes please'");
        });
    }

    @Test
    void theNameSaysWhoseRegistrationItIs() {
        assertThat(DevRegistrationName.of("Website Operator", "Anna's-MacBook.local"))
                .isEqualTo(new DevRegistrationName("kubeloop-dev-website-operator-anna-s-macbook-local",
                        "anna-s-macbook-local"));
        assertThat(DevRegistrationName.of(null, "x".repeat(80)).machineLabel()).hasSize(63);
    }

    /** What Spring Boot prints: the first analysis of the registered analyzers. */
    private static FailureAnalysis analyze(Throwable failure) {
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation().load(
                FailureAnalyzer.class, ArgumentResolver.of(Environment.class, new StandardEnvironment()),
                (type, name, error) -> { }); // analyzers needing more than the environment are not ours
        return analyzers.stream().map(analyzer -> analyzer.analyze(failure)).filter(Objects::nonNull).findFirst()
                .orElse(null);
    }

    private static String review(int size) {
        Widget widget = Widget.named("test", "w");
        widget.getSpec().setSize(size);
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
                + "\"uid\":\"u-1\",\"kind\":{\"group\":\"kubeloop.dev\",\"version\":\"v1\",\"kind\":\"Widget\"},"
                + "\"operation\":\"CREATE\",\"namespace\":\"test\",\"name\":\"w\",\"object\":"
                + cluster.client().getKubernetesSerialization().asJson(widget) + "}}";
    }

    private static SSLContext trusting(String caBundle) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(
                new ByteArrayInputStream(Base64.getDecoder().decode(caBundle.getBytes(StandardCharsets.US_ASCII)))));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
