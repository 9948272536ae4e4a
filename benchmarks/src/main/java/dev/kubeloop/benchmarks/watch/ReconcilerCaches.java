package dev.kubeloop.benchmarks.watch;

import dev.kubeloop.api.CacheReader;
import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.watch.IndexFunction;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.runtime.cache.CacheRequest;
import dev.kubeloop.runtime.cache.InformerRegistry;
import dev.kubeloop.runtime.cache.ResourceCache;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link CacheReader} a reconciler's mappers get, for benchmarks: the runtime's own
 * ({@code runtime.controller.ControllerCaches}) is package-private, and a benchmark has no reason
 * to widen the runtime's API. It does what that class and {@code ControllerWorkers.register} do, in
 * the same order and with the same allocations: indexes are registered on the shared informers
 * under the reconciler's name ({@code <reconciler>/<index>}, values copied into a list), and a
 * lookup finds the type's {@link ResourceCache}, checks that the index was declared, qualifies its
 * name and asks the cache, which asks fabric8's indexer.
 *
 * <p>State ownership: filled while registering, before the informers start; read-only afterwards.
 */
final class ReconcilerCaches implements CacheReader {

    private final String reconciler;
    private final Map<Class<?>, ResourceCache<?>> caches = new LinkedHashMap<>();
    private final Map<Class<?>, Set<String>> indexes = new LinkedHashMap<>();

    ReconcilerCaches(String reconciler) {
        this.reconciler = reconciler;
    }

    /**
     * An informer registry as {@code ControllerManager} makes it, with the settings' defaults
     * (managedFields stripped, lists in one response); failures and Warning Events go nowhere.
     */
    static InformerRegistry informers(KubernetesClient client) {
        return new InformerRegistry(client, Settings.STRIP_MANAGED_FIELDS.defaultValue(),
                Settings.INFORMER_LIST_PAGE_SIZE.defaultValue(), Settings.OPTIONAL_TYPE_POLL_INTERVAL.defaultValue(),
                (informer, error) -> System.err.println("informer failed: " + informer + ": " + error),
                new EventRecorder() {
                    @Override
                    public void normal(HasMetadata regarding, String reason, String message) {
                    }

                    @Override
                    public void warning(HasMetadata regarding, String reason, String message) {
                    }
                }, null); // not sharded
    }

    /** Registers {@code request} with {@code declared} indexes on its type, and adds its cache. */
    <R extends HasMetadata> ResourceCache<R> register(InformerRegistry informers, Class<R> type,
            CacheRequest<R> request, Map<String, IndexFunction<? super R>> declared) {
        declared.forEach((name, function) -> request.index(qualified(name), object -> {
            Collection<String> values = function.values(object);
            return values == null ? List.of() : List.copyOf(values);
        }));
        ResourceCache<R> cache = informers.register(request);
        caches.putIfAbsent(type, cache);
        indexes.computeIfAbsent(type, t -> new LinkedHashSet<>()).addAll(declared.keySet());
        return cache;
    }

    private String qualified(String index) {
        return reconciler + "/" + index;
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
            throw new IllegalArgumentException("no index " + index + " on " + type.getSimpleName());
        }
        return cache.byIndex(qualified(index), namespace, value);
    }

    @SuppressWarnings("unchecked")
    private <R extends HasMetadata> ResourceCache<R> cache(Class<R> type) {
        ResourceCache<?> cache = caches.get(type);
        if (cache == null) {
            throw new IllegalArgumentException(type.getName() + " is not cached");
        }
        return (ResourceCache<R>) cache;
    }
}
