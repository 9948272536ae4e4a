package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.CacheReader;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.watch.IndexFunction;
import dev.kubeloop.runtime.cache.CacheRequest;
import dev.kubeloop.runtime.cache.InformerRegistry;
import dev.kubeloop.runtime.cache.ResourceCache;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@link CacheReader} of one controller: its caches by type (the primary's first, then owned
 * types', then watched types'; a kind with several caches is read as their union, see
 * {@link KindViews}), and the indexes it declared, stored in the shared informers under
 * names qualified with the controller's name, so that two controllers may declare an index of the
 * same name on one shared informer.
 *
 * <p>State ownership: filled by {@link ControllerWorkers}'s constructor while it registers the
 * caches, before any informer starts (and so before any mapper or reconcile reads it); read-only
 * afterwards, from informer threads and workers. The maps are published by the final field of the
 * {@code ControllerWorkers} that holds this object.
 *
 * <p>Runtime machinery: public (with {@link #register}) so that the benchmarks measure this read
 * path rather than a copy of it; users get it as the {@link CacheReader} of their mappers.
 */
public final class ControllerCaches implements CacheReader {

    private final String controller;
    private final Map<Class<?>, KindViews<?>> caches = new LinkedHashMap<>();
    private final Map<Class<?>, Set<String>> indexes = new LinkedHashMap<>();

    public ControllerCaches(String controller) {
        this.controller = controller;
    }

    /**
     * Registers {@code request} with {@code indexes} (stored in the shared informer under names
     * qualified with this controller's, {@link #qualified}) and adds the cache it gets.
     */
    public <R extends HasMetadata> ResourceCache<R> register(InformerRegistry informers, Class<R> type,
            CacheRequest<R> request, Map<String, Function<R, List<String>>> indexes) {
        indexes.forEach((name, function) -> request.index(qualified(name), function));
        ResourceCache<R> cache = informers.register(request);
        add(type, cache, indexes.keySet());
        return cache;
    }

    /** A declared index function as the informer keeps it: its values copied, none for null. */
    public static <R> Function<R, List<String>> indexer(IndexFunction<? super R> function) {
        return object -> {
            Collection<String> values = function.values(object);
            return values == null ? List.of() : List.copyOf(values);
        };
    }

    /**
     * Adds a cache of {@code type} with its declared indexes. A type with several caches (owned and
     * watched with a selector, say) is read from all of them.
     */
    @SuppressWarnings("unchecked")
    <R extends HasMetadata> void add(Class<R> type, ResourceCache<R> cache, Set<String> declaredIndexes) {
        ((KindViews<R>) caches.computeIfAbsent(type, t -> new KindViews<R>())).add(cache);
        indexes.computeIfAbsent(type, t -> new LinkedHashSet<>()).addAll(declaredIndexes);
    }

    /** The name an index has in the shared informers. */
    String qualified(String index) {
        return controller + "/" + index;
    }

    @Override
    public <R extends HasMetadata> Optional<R> get(Class<R> type, ObjectKey key) {
        return views(type).get(key);
    }

    @Override
    public <R extends HasMetadata> List<R> list(Class<R> type, String namespace) {
        return views(type).list(namespace);
    }

    @Override
    public <R extends HasMetadata> List<R> byIndex(Class<R> type, String index, String namespace, String value) {
        KindViews<R> views = views(type);
        if (!indexes.getOrDefault(type, Set.of()).contains(index)) {
            throw new IllegalArgumentException("Reconciler '" + controller + "' declared no index '" + index + "' on "
                    + type.getSimpleName() + " (indexes: " + indexes.getOrDefault(type, Set.of()) + "): declare it "
                    + "with watches.index(" + type.getSimpleName() + ".class, \"" + index + "\", ...)");
        }
        return views.byIndex(qualified(index), namespace, value);
    }

    /** The cached object of {@code type}, if this controller caches that type and the object (in any view). */
    @SuppressWarnings("unchecked")
    <R extends HasMetadata> Optional<R> find(Class<R> type, ObjectKey key) {
        KindViews<?> views = caches.get(type);
        return views == null ? Optional.empty() : ((KindViews<R>) views).get(key);
    }

    /**
     * The first cache of {@code type}: the primary's or the owned one, which alone holds the owner
     * index ({@code owned()} and pruning read the objects this controller owns from it).
     */
    <R extends HasMetadata> ResourceCache<R> cache(Class<R> type) {
        return views(type).first();
    }

    @SuppressWarnings("unchecked")
    private <R extends HasMetadata> KindViews<R> views(Class<R> type) {
        KindViews<?> views = caches.get(type);
        if (views == null) {
            throw new IllegalArgumentException(type.getName() + " is not cached for reconciler '" + controller
                    + "' (it caches " + caches.keySet().stream().map(Class::getSimpleName).toList()
                    + "): own it with @Reconciler(owns = ...) or watch it with watches.watch(Watch.of(...))");
        }
        return (KindViews<R>) views;
    }
}
