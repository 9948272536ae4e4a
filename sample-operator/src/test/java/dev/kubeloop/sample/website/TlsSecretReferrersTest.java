package dev.kubeloop.sample.website;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ControllerListener;
import dev.kubeloop.runtime.controller.ReconcileReport;
import dev.kubeloop.runtime.manager.ControllerObserver;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The relation at scale: 1,000 Websites naming 10 TLS Secrets (100 each). Updating one Secret
 * reconciles exactly its 100 referrers, found through the index (the mapper, Mappers.byIndex,
 * asks the index and nothing else: see MappersTest in the library).
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = {"sample.demo=off", "sample.tls-secrets.watch=true", "kubeloop.reconcilers.website.workers=4"})
class TlsSecretReferrersTest {

    private static final int WEBSITES = 1_000;
    private static final int SECRETS = 10;

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Autowired
    ReconciledKeys reconciled;

    @Test
    void oneSecretUpdateReconcilesExactlyTheWebsitesThatNameIt() {
        for (int s = 0; s < SECRETS; s++) {
            client.resource(secret("tls-" + s, "v1")).create();
        }
        for (int w = 0; w < WEBSITES; w++) {
            client.resource(website("site-" + w, "tls-" + (w % SECRETS))).create();
        }
        kit.await("every Website reconciled once", Duration.ofMinutes(3),
                () -> reconciled.distinctKeys() == WEBSITES);
        settled();
        reconciled.clear();

        client.resource(secret("tls-3", "v2")).update();

        Set<String> expected = IntStream.range(0, WEBSITES).filter(w -> w % SECRETS == 3)
                .mapToObj(w -> ObjectKey.of(kit.namespace(), "site-" + w).toString()).collect(Collectors.toSet());
        kit.await("the referrers of tls-3 reconciled", Duration.ofMinutes(1),
                () -> Set.copyOf(reconciled.keys()).containsAll(expected));
        settled();
        // each referrer rolls its Deployment (the Secret's version is on the pod template), which
        // reconciles it once more as an owner: the same keys, no others
        assertThat(Set.copyOf(reconciled.keys())).as("the Websites reconciled after the update of tls-3")
                .isEqualTo(expected);
    }

    /**
     * Nothing queued, in flight or waiting for a retry: the 1,000 first reconciles contend on the
     * namespace's website-index ConfigMap, and their conflicts come back after a backoff.
     */
    private void settled() {
        kit.await("no Website queued, in flight or waiting for a retry", Duration.ofMinutes(2), () -> {
            var queue = kit.metrics("website").queue();
            return queue.depth() == 0 && queue.processing() == 0 && queue.waiting() == 0;
        });
    }

    private Website website(String name, String tlsSecret) {
        Website site = new Website();
        site.setMetadata(new ObjectMetaBuilder().withNamespace(kit.namespace()).withName(name).build());
        WebsiteSpec spec = new WebsiteSpec();
        spec.setReplicas(0);
        WebsiteTls tls = new WebsiteTls();
        tls.setSecretName(tlsSecret);
        spec.setTls(tls);
        site.setSpec(spec);
        return site;
    }

    private Secret secret(String name, String version) {
        return new SecretBuilder().withNewMetadata().withNamespace(kit.namespace()).withName(name).endMetadata()
                .withType("kubernetes.io/tls").withStringData(Map.of("tls.crt", version, "tls.key", version)).build();
    }

    @TestConfiguration
    static class RecordReconciledKeys {

        @Bean
        ReconciledKeys reconciledKeys() {
            return new ReconciledKeys();
        }
    }

    /** The keys of every finished reconcile, in order. */
    static class ReconciledKeys implements ControllerObserver {

        private final Queue<String> keys = new ConcurrentLinkedQueue<>();

        List<String> keys() {
            return List.copyOf(keys);
        }

        int count() {
            return keys.size();
        }

        long distinctKeys() {
            return keys.stream().distinct().count();
        }

        void clear() {
            keys.clear();
        }

        @Override
        public ControllerListener controllerRegistered(ControllerConfig<?> config) {
            return new ControllerListener() {
                @Override
                public void reconcileFinished(ReconcileReport report) {
                    keys.add(report.key().toString());
                }
            };
        }
    }
}
