package dev.kubeloop.sample.website;

import dev.kubeloop.api.ApiRefusal;
import dev.kubeloop.api.ApplyOptions;
import dev.kubeloop.api.ReconcileContext;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;

/**
 * The {@code website-index} ConfigMap of a namespace: one entry per Website (name → URL). Every
 * Website of the namespace writes to it, so each one applies only its own entry, as its own field
 * manager ({@code website-index/<name>}): server-side apply merges the entries, and no write is
 * locked on the ConfigMap's resourceVersion, so concurrent reconciles never conflict on it.
 * Cleanup applies the entry away (a manager that stops applying a field removes it), or finds the
 * namespace being deleted and the index gone with it. Not owned by
 * any Website: it outlives them. Stateless.
 */
final class WebsiteIndex {

    static final String NAME = "website-index";

    private WebsiteIndex() {
    }

    /** Applies the site's entry. */
    static void put(Website site, String url, ReconcileContext<Website> context) {
        context.apply(index(site).addToData(site.getMetadata().getName(), url).build(), entryOf(site));
    }

    /**
     * Removes the site's entry: the site's manager applies the index without it. In a namespace
     * being deleted that apply is refused if the index is gone already (a create there is): then
     * there is no entry left to remove, and no index can be made there again.
     */
    static void remove(Website site, ReconcileContext<Website> context) {
        try {
            context.apply(index(site).build(), entryOf(site));
        } catch (KubernetesClientException e) {
            if (ApiRefusal.of(e).filter(ApiRefusal::namespaceTerminating).isEmpty()) {
                throw e;
            }
            context.log().debug("No index to remove the entry from: namespace {} is being deleted",
                    site.getMetadata().getNamespace());
        }
    }

    static Map<String, String> entries(ConfigMap index) {
        return index == null || index.getData() == null ? Map.of() : index.getData();
    }

    private static ConfigMapBuilder index(Website site) {
        return new ConfigMapBuilder().withNewMetadata().withName(NAME).withNamespace(site.getMetadata().getNamespace())
                .addToLabels("app.kubernetes.io/managed-by", "kubeloop-sample-operator").endMetadata();
    }

    private static ApplyOptions entryOf(Website site) {
        return ApplyOptions.defaults().fieldManager("website-index/" + site.getMetadata().getName()).notOwned();
    }
}
