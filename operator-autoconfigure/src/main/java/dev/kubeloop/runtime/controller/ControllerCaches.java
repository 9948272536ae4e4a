package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.CacheReader;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.runtime.cache.ResourceCache;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link CacheReader} of one controller: its caches by type (the primary's first, then owned
 * types', then watched types'), and the indexes it declared, stored in the shared informers under
 * names qualified with the controller's name, so that two controllers may declare an index of the
 * same name on one shared informer.
 *
 * <p>State ownership: filled by {@link ControllerWorkers}'s constructor while it registers the
 * caches, before any informer starts (and so before any mapper or reconcile reads it); read-only
 * afterwards, from informer threads and workers. The maps are published by the final field of the
 * {@code ControllerWorkers} that holds this object.
 */
final class ControllerCaches implements CacheReader {

    private final String controller;
    private final Map<Class<?>, ResourceCache<?>> caches = new LinkedHashMap<>();
    private final Map<Class<?>, Set<String>> indexes = new LinkedHashMap<>();

    ControllerCaches(String controller) {
        this.controller = controller;
    }

    /** Adds the cache of {@code type} with its declared indexes; the first cache of a type is the one read. */
    void add(Class<?> type, ResourceCache<?> cache, Set<String> declaredIndexes) {
        caches.putIfAbsent(type, cache);
        indexes.computeIfAbsent(type, t -> new LinkedHashSet<>()).addAll(declaredIndexes);
    }

    /** The name an index has in the shared informers. */
    String qualified(String index) {
        return controller + "/" + index;
    }

    @Override
    public <R extends HasMetadata> Optional<R> get(Class<R> type, ObjectKey key) {
        return cache(type).get(key);
    }

    @Override
    public <R extends HasMetadata> List<R> list(Class<R> type, String namespace) {
        return cache(type).list(namespace);
    }

    @Override
    public <R extends HasMetadata> List<R> byIndex(Class<R> type, String index, String namespace, String value) {
        ResourceCache<R> cache = cache(type);
        if (!indexes.getOrDefault(type, Set.of()).contains(index)) {
            throw new IllegalArgumentException("Reconciler '" + controller + "' declared no index '" + index + "' on "
                    + type.getSimpleName() + " (indexes: " + indexes.getOrDefault(type, Set.of()) + "): declare it "
                    + "with watches.index(" + type.getSimpleName() + ".class, \"" + index + "\", ...)");
        }
        return cache.byIndex(qualified(index), namespace, value);
    }

    /** The cached object of {@code type}, if this controller caches that type and the object. */
    @SuppressWarnings("unchecked")
    <R extends HasMetadata> Optional<R> find(Class<R> type, ObjectKey key) {
        ResourceCache<?> cache = caches.get(type);
        return cache == null ? Optional.empty() : ((ResourceCache<R>) cache).get(key);
    }

    @SuppressWarnings("unchecked")
    <R extends HasMetadata> ResourceCache<R> cache(Class<R> type) {
        ResourceCache<?> cache = caches.get(type);
        if (cache == null) {
            throw new IllegalArgumentException(type.getName() + " is not cached for reconciler '" + controller
                    + "' (it caches " + caches.keySet().stream().map(Class::getSimpleName).toList()
                    + "): own it with @Reconciler(owns = ...) or watch it with watches.watch(Watch.of(...))");
        }
        return (ResourceCache<R>) cache;
    }
}
