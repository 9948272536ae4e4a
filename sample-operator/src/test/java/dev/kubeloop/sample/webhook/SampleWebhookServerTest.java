package dev.kubeloop.sample.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteTls;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import dev.kubeloop.test.webhook.AdmissionResult;
import dev.kubeloop.webhook.WebhookServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The sample operator as a pod runs it, webhooks on, without an API server calling them: the
 * webhook server answers AdmissionReviews over TLS on its own port, counts them in
 * {@code controller_runtime_webhook_requests_total}, and is part of readiness; and
 * {@code kit.webhooks()} calls the same validator in-process.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml", webhooks = true,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"sample.demo=off", "management.server.port=0",
            "management.endpoint.health.probes.enabled=true"})
class SampleWebhookServerTest {

    private static final String VALIDATE = "/validate-sample-kubeloop-dev-v1-website";

    @Autowired
    WebhookServer server;

    @Autowired
    KubeloopTestKit kit;

    @Autowired
    HealthEndpointGroups groups;

    @Value("${local.management.port}")
    int managementPort;

    @Value("${spring.ssl.bundle.pem.kubeloop-test-webhook.keystore.certificate}")
    URI certificate;

    private static Website withoutSecretName() {
        Website site = WebsiteWebhooksTest.website("insecure");
        site.getSpec().setTls(new WebsiteTls());
        return site;
    }

    @Test
    void anAdmissionReviewIsAnsweredOverTlsOnTheWebhookPortAndCounted() throws Exception {
        String object = kit.client().getKubernetesSerialization().asJson(withoutSecretName());
        String review = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
                + "\"uid\":\"e2f1\",\"kind\":{\"group\":\"sample.kubeloop.dev\",\"version\":\"v1\",\"kind\":\"Website\"},"
                + "\"operation\":\"CREATE\",\"namespace\":\"shop\",\"name\":\"insecure\",\"object\":" + object + "}}";

        HttpResponse<String> answer = HttpClient.newBuilder().sslContext(trustingTheTestCa()).build().send(
                HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + VALIDATE))
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(review))
                        .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).contains("\"uid\":\"e2f1\"", "\"allowed\":false",
                "spec.tls.secretName is required when spec.tls is set");
        assertThat(server.port()).isNotEqualTo(managementPort);
        kit.await("the request is counted", () -> get("/actuator/prometheus").body().contains(
                "controller_runtime_webhook_requests_total{code=\"200\",webhook=\"" + VALIDATE + "\"} 1.0"));
        assertThat(get("/actuator/prometheus").body()).contains("controller_runtime_webhook_latency_seconds_bucket",
                "controller_runtime_webhook_requests_in_flight{webhook=\"" + VALIDATE + "\"} 0.0",
                "controller_runtime_webhook_panics_total 0.0");
    }

    @Test
    void readinessIncludesTheWebhookServer() throws Exception {
        assertThat(groups.get("readiness").isMember("webhook")).isTrue();
        assertThat(groups.get("readiness").isMember("kubeloop")).isTrue();
        assertThat(groups.get("liveness").isMember("webhook")).as("a webhook problem never restarts the pod").isFalse();
        kit.await("ready", () -> get("/actuator/health/readiness").statusCode() == 200);

        server.stop(Duration.ZERO);
        try {
            kit.await("not ready while the webhook server does not listen",
                    () -> get("/actuator/health/readiness").statusCode() == 503);
        } finally {
            server.start();
        }
        kit.await("ready again", () -> get("/actuator/health/readiness").statusCode() == 200);
    }

    @Test
    void theKitCallsTheApplicationsWebhooksInProcess() {
        AdmissionResult<Website> result = kit.webhooks().create(withoutSecretName());

        assertThat(result.allowed()).isFalse();
        assertThat(result.message()).isEqualTo("spec.tls.secretName is required when spec.tls is set");
    }

    private HttpResponse<String> get(String path) {
        try {
            return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + managementPort + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The kit's throwaway CA, written next to the serving certificate. */
    private SSLContext trustingTheTestCa() throws Exception {
        Path ca = Path.of(certificate).resolveSibling("ca.crt");
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(ca)) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
