package dev.kubeloop.sample.website;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The {@code website-index} ConfigMap of a namespace: one entry per Website (name → URL), kept
 * by reconcile and cleared by cleanup before the finalizer goes. It is shared by every Website of
 * the namespace, so writes are read-modify-update on the cached resourceVersion: two workers
 * racing on it get a 409 each but the first, and the runtime requeues the others quietly.
 * Stateless.
 */
final class WebsiteIndex {

    static final String NAME = "website-index";

    private WebsiteIndex() {
    }

    /** Adds or corrects the site's entry; true if the index was written. */
    static boolean put(Website site, String url, ReconcileContext<Website> context) {
        String name = site.getMetadata().getName();
        Optional<ConfigMap> cached = cached(site, context);
        if (cached.isEmpty()) {
            context.client().resource(new ConfigMapBuilder().withNewMetadata().withName(NAME)
                    .withNamespace(site.getMetadata().getNamespace())
                    .addToLabels("app.kubernetes.io/managed-by", "kubeloop-sample-operator").endMetadata()
                    .addToData(name, url).build()).create();
            return true;
        }
        if (Objects.equals(entries(cached.get()).get(name), url)) {
            return false;
        }
        return write(context, cached.get(), entries -> entries.put(name, url));
    }

    /** Removes the site's entry; true if the index was written. */
    static boolean remove(Website site, ReconcileContext<Website> context) {
        String name = site.getMetadata().getName();
        Optional<ConfigMap> cached = cached(site, context);
        if (cached.isEmpty() || !entries(cached.get()).containsKey(name)) {
            return false;
        }
        return write(context, cached.get(), entries -> entries.remove(name));
    }

    static Map<String, String> entries(ConfigMap index) {
        return index.getData() == null ? Map.of() : index.getData();
    }

    private static Optional<ConfigMap> cached(Website site, ReconcileContext<Website> context) {
        return context.cached(ConfigMap.class, new ObjectKey(site.getMetadata().getNamespace(), NAME));
    }

    private static boolean write(ReconcileContext<Website> context, ConfigMap cached,
            Consumer<Map<String, String>> change) {
        ConfigMap copy = context.client().getKubernetesSerialization().clone(cached);
        Map<String, String> entries = new LinkedHashMap<>(entries(copy));
        change.accept(entries);
        copy.setData(entries);
        context.client().resource(copy).update(); // locked on the cached resourceVersion
        return true;
    }
}
