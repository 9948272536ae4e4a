package dev.kubeloop.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Identifies one object of a reconciler's primary type: its namespace (null for cluster-scoped
 * objects) and name. This is the work queue item; it carries no state, so reconcilers always read
 * the latest object (level-triggered), never the event that caused the reconcile.
 */
public record ObjectKey(@Nullable String namespace, String name) {

    public ObjectKey {
        Objects.requireNonNull(name, "name");
        if (namespace != null && namespace.isEmpty()) {
            namespace = null;
        }
    }

    /** The key of a namespaced object. */
    public static ObjectKey of(@Nullable String namespace, String name) {
        return new ObjectKey(namespace, name);
    }

    /** The key of a cluster-scoped object. */
    public static ObjectKey clusterScoped(String name) {
        return new ObjectKey(null, name);
    }

    public static ObjectKey of(HasMetadata object) {
        return new ObjectKey(object.getMetadata().getNamespace(), object.getMetadata().getName());
    }

    /** {@code namespace/name}, or {@code name} when cluster-scoped: the informer cache's key format. */
    @Override
    public String toString() {
        return namespace == null ? name : namespace + "/" + name;
    }
}
