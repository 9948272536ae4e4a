package dev.kubeloop.sample.e2e;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.TimeUnit;

/** CRDs the e2e tests install themselves (the kit installs those of {@code @KubeloopTest(crds)}). */
final class Crds {

    private Crds() {
    }

    /** Waits until the API server reports the CRD Established: its resource is served. */
    static void awaitEstablished(KubernetesClient client, String name, long seconds) {
        client.apiextensions().v1().customResourceDefinitions().withName(name).waitUntilCondition(c ->
                c != null && c.getStatus() != null && c.getStatus().getConditions() != null
                        && c.getStatus().getConditions().stream().anyMatch(condition ->
                                condition.getType().equals("Established") && condition.getStatus().equals("True")),
                seconds, TimeUnit.SECONDS);
    }
}
