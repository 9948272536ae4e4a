package dev.kubeloop.runtime.cache;

import dev.kubeloop.api.ObjectKey;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A read-only view of the cached objects of one type in one scope, over one informer (all
 * namespaces) or one informer per namespace. Reads never call the API server.
 *
 * <p>Objects returned are the cache's own instances, shared with every controller: callers must
 * not modify them. Thread-safe: the view is immutable and fabric8's stores are concurrent. Reads
 * before the informers started return nothing.
 *
 * @param <T> the cached type
 */
public final class ResourceCache<T extends HasMetadata> {

    private final Class<T> type;
    private final List<InformerRegistry.Entry<T>> entries;
    /** Per namespace when the scope is a list of namespaces; empty when one informer covers all. */
    private final Map<String, InformerRegistry.Entry<T>> byNamespace;

    ResourceCache(Class<T> type, List<InformerRegistry.Entry<T>> entries) {
        this.type = type;
        this.entries = List.copyOf(entries);
        boolean perNamespace = entries.size() > 1 || entries.get(0).key().namespace() != null;
        this.byNamespace = perNamespace
                ? entries.stream().collect(Collectors.toUnmodifiableMap(e -> e.key().namespace(), Function.identity()))
                : Map.of();
    }

    public Class<T> type() {
        return type;
    }

    /** The cached object with this key, if it is cached (and in this view's scope). */
    public Optional<T> get(ObjectKey key) {
        InformerRegistry.Entry<T> entry = byNamespace.isEmpty() ? entries.get(0) : byNamespace.get(key.namespace());
        SharedIndexInformer<T> informer = entry == null ? null : entry.informer();
        if (informer == null) {
            return Optional.empty();
        }
        // ObjectKey.toString() is fabric8's store key: namespace/name, or name when cluster-scoped
        return Optional.ofNullable(informer.getStore().getByKey(key.toString()));
    }

    /** Every cached object in scope. */
    public List<T> list() {
        List<T> result = new ArrayList<>();
        for (InformerRegistry.Entry<T> entry : entries) {
            SharedIndexInformer<T> informer = entry.informer();
            if (informer != null) {
                result.addAll(informer.getStore().list());
            }
        }
        return result;
    }

    /** The cached objects whose index {@code indexName} contains {@code value}. */
    public List<T> byIndex(String indexName, String value) {
        List<T> result = new ArrayList<>();
        for (InformerRegistry.Entry<T> entry : entries) {
            SharedIndexInformer<T> informer = entry.informer();
            if (informer != null) {
                result.addAll(informer.getIndexer().byIndex(indexName, value));
            }
        }
        return result;
    }

    /** Snapshots of the informers behind this view. */
    public List<InformerStatus> statuses() {
        return entries.stream().map(InformerRegistry.Entry::status).toList();
    }

    /** True once every informer behind this view has completed its first list. */
    public boolean hasSynced() {
        for (InformerRegistry.Entry<T> entry : entries) {
            SharedIndexInformer<T> informer = entry.informer();
            if (informer == null || !informer.hasSynced()) {
                return false;
            }
        }
        return true;
    }
}
