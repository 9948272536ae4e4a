package dev.kubeloop.sample.e2e;

import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.sample.website.WebsiteSpec;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;

/** Websites to create in the end-to-end tests, and what the operator publishes about them. */
final class Sites {

    /** The ConfigMap in which the operator lists a namespace's Websites (name → URL). */
    static final String INDEX = "website-index";

    private Sites() {
    }

    static Website website(String namespace, String name, String html) {
        Website site = new Website();
        site.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
        WebsiteSpec spec = new WebsiteSpec();
        spec.setPage(html);
        site.setSpec(spec);
        return site;
    }

    /** The namespace's {@code website-index} entries; empty when there is no index yet. */
    static Map<String, String> index(KubernetesClient client, String namespace) {
        ConfigMap index = client.configMaps().inNamespace(namespace).withName(INDEX).get();
        return index == null || index.getData() == null ? Map.of() : index.getData();
    }

    /** Reconciles of the sample's controller that failed so far (and were retried), for the figures a test prints. */
    static long failedReconciles(KubeloopTestKit kit) {
        return kit.metrics("website").outcomes().getOrDefault(ReconcileOutcome.ERROR, 0L);
    }
}
