package dev.kubeloop.benchmarks.watch;

import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IngressTLS;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The primaries of the mapping benchmark: Ingresses, each naming one TLS Secret in
 * {@code spec.tls[].secretName}, the built-in form of "the spec names a Secret". Exactly
 * {@link #REFERRERS} of them name the Secret the benchmark updates ({@link #updatedSecret()}); all
 * others are spread evenly over the other {@code SECRETS - 1} Secrets, so the updated Secret's
 * referrers stay 100 however many primaries there are. Stateless.
 */
final class TlsIngresses {

    static final String NAMESPACE = "bench";
    static final int SECRETS = 100;
    static final int REFERRERS = 100;
    /** The index a reconciler of Ingresses would declare: the TLS Secrets each one names. */
    static final String INDEX = "spec.tls.secretName";

    private TlsIngresses() {
    }

    static String secretName(int secret) {
        return String.format("tls-%03d", secret);
    }

    /** The Secret whose update is mapped: named by exactly {@link #REFERRERS} Ingresses. */
    static String updatedSecret() {
        return secretName(0);
    }

    /** {@code count} Ingresses as the API server would list them (uid, resourceVersion, generation set). */
    static List<Ingress> create(int count) {
        if (count < REFERRERS) {
            throw new IllegalArgumentException("at least " + REFERRERS + " primaries, got " + count);
        }
        List<Ingress> ingresses = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = String.format("site-%06d", i);
            String secret = i < REFERRERS ? updatedSecret() : secretName(1 + i % (SECRETS - 1));
            ingresses.add(new IngressBuilder()
                    .withNewMetadata().withName(name).withNamespace(NAMESPACE)
                    .withUid(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString())
                    .withResourceVersion(String.valueOf(i + 1)).withGeneration(1L)
                    .withCreationTimestamp("2026-01-01T00:00:00Z")
                    .addToLabels("app.kubernetes.io/name", name).endMetadata()
                    .withNewSpec().withIngressClassName("nginx")
                    .addNewTl().withHosts(name + ".example.com").withSecretName(secret).endTl()
                    .addNewRule().withHost(name + ".example.com").withNewHttp().addNewPath().withPath("/")
                    .withPathType("Prefix").withNewBackend().withNewService().withName(name)
                    .withNewPort().withNumber(80).endPort().endService().endBackend().endPath().endHttp().endRule()
                    .endSpec()
                    .build());
        }
        return ingresses;
    }

    /** The index function: the Secrets an Ingress names for TLS. */
    static List<String> tlsSecrets(Ingress ingress) {
        if (ingress.getSpec() == null || ingress.getSpec().getTls() == null) {
            return List.of();
        }
        List<String> secrets = new ArrayList<>(ingress.getSpec().getTls().size());
        for (IngressTLS tls : ingress.getSpec().getTls()) {
            if (tls.getSecretName() != null) {
                secrets.add(tls.getSecretName());
            }
        }
        return secrets;
    }
}
