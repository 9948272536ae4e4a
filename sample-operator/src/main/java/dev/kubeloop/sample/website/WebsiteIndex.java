package dev.kubeloop.sample.website;

import dev.kubeloop.api.ApplyOptions;
import dev.kubeloop.api.ReconcileContext;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Map;

/**
 * The {@code website-index} ConfigMap of a namespace: one entry per Website (name → URL). Every
 * Website of the namespace writes to it, so each one applies only its own entry, as its own field
 * manager ({@code website-index/<name>}): server-side apply merges the entries, and no write is
 * locked on the ConfigMap's resourceVersion, so concurrent reconciles never conflict on it.
 * Cleanup applies the entry away (a manager that stops applying a field removes it). Not owned by
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
     * Removes the site's entry: the site's manager applies the index without it. Nothing to do when
     * the index has no entry for the site, or is gone: an apply would create it, and in a namespace
     * being deleted (whose content the namespace controller deletes first) creating is refused,
     * forever, so the finalizer would never go and the namespace would never finish terminating.
     */
    static void remove(Website site, ReconcileContext<Website> context) {
        ConfigMap live = context.client().configMaps().inNamespace(site.getMetadata().getNamespace()).withName(NAME)
                .get();
        if (!entries(live).containsKey(site.getMetadata().getName())) {
            return;
        }
        context.apply(index(site).build(), entryOf(site));
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
