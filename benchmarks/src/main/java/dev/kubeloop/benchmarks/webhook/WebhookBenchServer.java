package dev.kubeloop.benchmarks.webhook;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeloop.api.webhook.Admission;
import dev.kubeloop.api.webhook.AdmissionContext;
import dev.kubeloop.api.webhook.Validator;
import dev.kubeloop.test.webhook.TestCertificates;
import dev.kubeloop.webhook.ServerTls;
import dev.kubeloop.webhook.WebhookServer;
import dev.kubeloop.webhook.Webhooks;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The server side of the admission latency benchmark, in a JVM of its own as in a pod: Kubeloop's
 * {@link WebhookServer} on 127.0.0.1 (any port, 8 threads, TLS with a throwaway CA) serving a
 * validator and a defaulter of {@link BenchWebsite} doing what the sample's do. Prints
 * {@code READY <port> <ca file>} and serves until its stdin closes.
 */
public final class WebhookBenchServer {

    private static final Pattern IMAGE = Pattern.compile("^(?:[a-zA-Z0-9.-]+(?::[0-9]+)?/)?[a-z0-9._/-]+"
            + "(?::[\\w][\\w.-]{0,127})?(?:@sha256:[0-9a-f]{64})?$");

    private WebhookBenchServer() {
    }

    public static void main(String[] args) throws Exception {
        KubernetesSerialization serialization = new KubernetesSerialization(
                new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES), true);
        Validator<BenchWebsite> validator = new Validator<>() {
            @Override
            public Admission validateCreate(BenchWebsite site, AdmissionContext context) {
                BenchWebsite.Spec spec = site.getSpec();
                if (spec.getTls() != null && (spec.getTls().getSecretName() == null
                        || spec.getTls().getSecretName().isBlank())) {
                    return Admission.denied("spec.tls.secretName is required when spec.tls is set");
                }
                if (!IMAGE.matcher(spec.getImage()).matches()) {
                    return Admission.denied("spec.image is not a valid image reference");
                }
                if (spec.getReplicas() > 1 && spec.getImage().endsWith(":latest")) {
                    return Admission.denied("spec.replicas needs a pinned image");
                }
                return Admission.allowed();
            }
        };
        Webhooks webhooks = Webhooks.builder(serialization).validator(BenchWebsite.class, validator)
                .defaulter(BenchWebsite.class, (site, context) -> {
                    if (site.getSpec().getPage() == null || site.getSpec().getPage().isBlank()) {
                        site.getSpec().setPage("<h1>" + site.getMetadata().getName() + "</h1>");
                    }
                }).build();
        TestCertificates certificates = TestCertificates.forLoopback();
        Path ca = Files.createTempFile("webhook-bench-ca", ".crt");
        Files.writeString(ca, certificates.caPem());
        WebhookServer server = WebhookServer.builder(webhooks, ServerTls.of(certificates.keyManager(),
                certificates.serving(), "TLS", null, null)).address(InetAddress.getLoopbackAddress()).port(0).build();
        server.start();
        System.out.println("READY " + server.port() + " " + ca);
        System.out.flush();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            while (in.readLine() != null) {
                // serve until the launcher closes stdin
            }
        }
        server.stop(Duration.ofSeconds(1));
    }
}
