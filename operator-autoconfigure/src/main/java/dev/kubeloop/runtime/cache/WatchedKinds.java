package dev.kubeloop.runtime.cache;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Registers the class an informer reads with the client's serialization, so that the informer's
 * watch events are read as that class in one step.
 *
 * <p>Why: fabric8 reads a watch event's object by its apiVersion and kind. A kind that is not
 * registered (every custom resource class, unless the application registered it) is read as a
 * {@link GenericKubernetesResource}, which fabric8's watch manager then converts to the informer's
 * class: a write and a read more of every event, about a third of what fabric8 spends on one
 * (docs/performance.md, "fabric8's watch events").
 *
 * <p>A kind is registered only while this is safe: when the application has not registered it
 * itself (fabric8's built-in kinds are registered already, so this only ever registers custom
 * resource classes), and while Kubeloop's informers read it with one class. A second class for the
 * same kind (a narrower class for a secondary watch, say) would otherwise receive objects read as
 * the first and converted, losing any field the first does not have; the kind is then mapped to
 * {@link GenericKubernetesResource} again, which is fabric8's behaviour for an unregistered kind.
 *
 * <p>Thread-safe: informers are created rarely (at start, and when a watch is added); every call
 * holds this class's monitor. The per-serialization state is weakly keyed, gone with its client.
 */
final class WatchedKinds {

    /** Per serialization: the classes Kubeloop's informers read, by apiVersion and kind; guarded by the class. */
    private static final Map<KubernetesSerialization, Map<String, Set<Class<?>>>> INFORMED = new WeakHashMap<>();

    private WatchedKinds() {
    }

    /** Called before an informer reading {@code type} through {@code serialization} is created. */
    static synchronized void informing(KubernetesSerialization serialization, Class<? extends HasMetadata> type) {
        if (GenericKubernetesResource.class.isAssignableFrom(type)) {
            return;
        }
        String apiVersion = HasMetadata.getApiVersion(type);
        String kind = HasMetadata.getKind(type);
        if (apiVersion == null || apiVersion.isEmpty() || kind == null || kind.isEmpty()) {
            return;
        }
        Map<String, Set<Class<?>>> informed = INFORMED.computeIfAbsent(serialization, s -> new HashMap<>());
        String key = apiVersion + "/" + kind;
        Set<Class<?>> classes = informed.get(key);
        Class<? extends KubernetesResource> registered = serialization.getRegisteredKubernetesResource(apiVersion, kind);
        if (classes == null) {
            if (registered != null) {
                return; // fabric8's own kind, or the application's registration: left as it is
            }
            classes = new HashSet<>();
            informed.put(key, classes);
        } else if (!registeredByUs(registered, classes)) {
            return; // registered by the application since: left as it is
        }
        classes.add(type);
        Class<? extends KubernetesResource> wanted = classes.size() == 1 ? type : GenericKubernetesResource.class;
        if (registered != wanted) {
            serialization.registerKubernetesResource(apiVersion, kind, wanted);
        }
    }

    private static boolean registeredByUs(Class<?> registered, Set<Class<?>> classes) {
        return registered == GenericKubernetesResource.class || classes.contains(registered);
    }
}
