package dev.kubeloop.runtime.cache;

import dev.kubeloop.api.ObjectKey;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A read-only view of the cached objects of one type in one scope, over one informer (all
 * namespaces) or one informer per namespace. Reads never call the API server, and return nothing
 * for an informer that is not running (before start, or an optional type that is not served).
 *
 * <p>Objects returned are the cache's own instances, shared with every controller: callers must
 * not modify them. Thread-safe: the view is immutable and fabric8's stores are concurrent.
 *
 * @param <T> the cached type
 */
public final class ResourceCache<T extends HasMetadata> {

    private final Class<T> type;
    private final List<InformerEntry<T>> entries;
    /** Per namespace when the scope is a list of namespaces; empty when one informer covers all. */
    private final Map<String, InformerEntry<T>> byNamespace;

    ResourceCache(Class<T> type, List<InformerEntry<T>> entries) {
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

    /** Whether this view holds metadata only. */
    public boolean metadataOnly() {
        return entries.get(0).key().metadataOnly();
    }

    /** The cached object with this key, if it is cached (and in this view's scope). */
    public Optional<T> get(ObjectKey key) {
        SharedIndexInformer<T> informer = informerFor(key.namespace());
        if (informer == null) {
            return Optional.empty();
        }
        // ObjectKey.toString() is fabric8's store key: namespace/name, or name when cluster-scoped
        return Optional.ofNullable(informer.getStore().getByKey(key.toString()));
    }

    /** Every cached object in scope. */
    public List<T> list() {
        List<T> result = new ArrayList<>();
        for (InformerEntry<T> entry : entries) {
            SharedIndexInformer<T> informer = entry.informer();
            if (informer != null) {
                result.addAll(informer.getStore().list());
            }
        }
        return result;
    }

    /** The cached objects in {@code namespace}; all of them for null. */
    public List<T> list(String namespace) {
        if (namespace == null) {
            return list();
        }
        SharedIndexInformer<T> informer = informerFor(namespace);
        if (informer == null) {
            return List.of();
        }
        return informer.getIndexer().byIndex(Cache.NAMESPACE_INDEX,
                namespace);
    }

    /** The cached objects whose index {@code indexName} contains {@code value}, as stored (unqualified). */
    public List<T> byIndex(String indexName, String value) {
        List<T> result = new ArrayList<>();
        for (InformerEntry<T> entry : entries) {
            SharedIndexInformer<T> informer = entry.informer();
            if (informer != null) {
                result.addAll(informer.getIndexer().byIndex(indexName, value));
            }
        }
        return result;
    }

    /**
     * The cached objects in {@code namespace} (null: all) whose user-declared index
     * {@code indexName} contains {@code value} (see {@link Indexes}).
     */
    public List<T> byIndex(String indexName, String namespace, String value) {
        if (namespace == null || byNamespace.isEmpty()) {
            return byIndex(indexName, Indexes.key(namespace, value));
        }
        SharedIndexInformer<T> informer = informerFor(namespace);
        return informer == null ? List.of() : informer.getIndexer().byIndex(indexName, Indexes.key(namespace, value));
    }

    private SharedIndexInformer<T> informerFor(String namespace) {
        InformerEntry<T> entry = byNamespace.isEmpty() ? entries.get(0) : byNamespace.get(namespace);
        return entry == null ? null : entry.informer();
    }

    /** Snapshots of the informers behind this view. */
    public List<InformerStatus> statuses() {
        return entries.stream().map(InformerEntry::status).toList();
    }

    /** True once every informer behind this view has completed its first list (or waits for an optional type). */
    public boolean hasSynced() {
        for (InformerEntry<T> entry : entries) {
            if (!entry.waiting() && !entry.hasSynced()) {
                return false;
            }
        }
        return true;
    }
}
