package dev.kubeloop.runtime.cache;

import dev.kubeloop.api.ObjectKey;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A read-only view of the cached objects of one type in one scope, over one informer (all
 * namespaces) or one informer per namespace, and in a sharded scope one per bucket of each: reads
 * go to the informers running now (the buckets this replica holds). Reads never call the API
 * server, and return nothing for an informer that is not running (before start, an optional type
 * that is not served, a bucket another replica holds).
 *
 * <p>Objects returned are the cache's own instances, shared with every controller: callers must
 * not modify them. Thread-safe: the view is immutable and fabric8's stores are concurrent.
 *
 * @param <T> the cached type
 */
public final class ResourceCache<T extends HasMetadata> {

    private final Class<T> type;
    private final List<InformerEntry<T>> entries;
    /** The informers of all namespaces (one, or one per bucket); empty when the scope is a list of namespaces. */
    private final List<InformerEntry<T>> allNamespaces;
    /** Per namespace when the scope is a list of namespaces (one informer each, or one per bucket). */
    private final Map<String, List<InformerEntry<T>>> byNamespace;

    ResourceCache(Class<T> type, List<InformerEntry<T>> entries) {
        this.type = type;
        this.entries = List.copyOf(entries);
        this.allNamespaces = entries.stream().filter(e -> e.key().namespace() == null).toList();
        this.byNamespace = entries.stream().filter(e -> e.key().namespace() != null).collect(
                Collectors.collectingAndThen(Collectors.groupingBy(e -> e.key().namespace(), Collectors.toList()),
                        Map::copyOf));
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
        // ObjectKey.toString() is fabric8's store key: namespace/name, or name when cluster-scoped
        String storeKey = key.toString();
        for (InformerEntry<T> entry : entriesFor(key.namespace())) {
            SharedIndexInformer<T> informer = entry.informer();
            T found = informer == null ? null : informer.getStore().getByKey(storeKey);
            if (found != null) {
                return Optional.of(found);
            }
        }
        return Optional.empty();
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

    /** How many objects are cached in scope, without copying them (health and metrics read it often). */
    public int size() {
        int size = 0;
        for (InformerEntry<T> entry : entries) {
            size += entry.cachedObjects();
        }
        return size;
    }

    /** The cached objects of one bucket of a sharded scope; empty while its informers do not run. */
    public List<T> listBucket(int bucket) {
        List<T> result = new ArrayList<>();
        for (InformerEntry<T> entry : entries) {
            SharedIndexInformer<T> informer = entry.informer();
            if (informer != null && entry.key().bucket() == bucket) {
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
        List<T> result = new ArrayList<>();
        for (InformerEntry<T> entry : entriesFor(namespace)) {
            SharedIndexInformer<T> informer = entry.informer();
            if (informer != null) {
                result.addAll(informer.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace));
            }
        }
        return result;
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
        List<T> result = new ArrayList<>();
        for (InformerEntry<T> entry : entriesFor(namespace)) {
            SharedIndexInformer<T> informer = entry.informer();
            if (informer != null) {
                result.addAll(informer.getIndexer().byIndex(indexName, Indexes.key(namespace, value)));
            }
        }
        return result;
    }

    /** The informers that may hold objects of {@code namespace}: those of all namespaces, or the namespace's own. */
    private List<InformerEntry<T>> entriesFor(String namespace) {
        if (!allNamespaces.isEmpty()) {
            return allNamespaces;
        }
        return namespace == null ? List.of() : byNamespace.getOrDefault(namespace, List.of());
    }

    /** Snapshots of the informers behind this view (of a sharded scope, the running ones). */
    public List<InformerStatus> statuses() {
        return entries.stream().filter(InformerEntry::counts).map(InformerEntry::status).toList();
    }

    /**
     * True once every informer behind this view has completed its first list (or waits for an
     * optional type); of a sharded scope, every running one.
     */
    public boolean hasSynced() {
        for (InformerEntry<T> entry : entries) {
            if (!entry.counts()) {
                continue;
            }
            if (!entry.waiting() && !entry.hasSynced()) {
                return false;
            }
        }
        return true;
    }
}
