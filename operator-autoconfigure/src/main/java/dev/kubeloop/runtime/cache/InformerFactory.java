package dev.kubeloop.runtime.cache;

import dev.kubeloop.api.EventRecorder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Creates the fabric8 informer of an {@link InformerKey}, unstarted: a typed informer that leaves
 * unreadable objects out ({@link TolerantListerWatcher}), or a metadata-only one
 * ({@link MetadataListerWatcher}), listing in pages when a page size is set; a typed informer's
 * class is registered for its kind first ({@link WatchedKinds}).
 *
 * <p>State ownership: the metadata-only client (a second client of the same configuration, with
 * the metadata {@code Accept} header) is created on first use under this object's monitor and
 * closed by {@link #close()}; everything else is immutable.
 */
final class InformerFactory implements AutoCloseable {

    private final KubernetesClient client;
    private final boolean stripManagedFields;
    /** Objects per page of an informer's list; 0 lists everything in one response. */
    private final long listPageSize;
    /** Warning Events about objects an informer cannot read. */
    private final EventRecorder events;
    /** The buckets of sharded informers; null when nothing is sharded. */
    private final ShardLayout shards;
    // guarded by this
    private KubernetesClient metadataClient;

    InformerFactory(KubernetesClient client, boolean stripManagedFields, long listPageSize, EventRecorder events,
            ShardLayout shards) {
        this.client = client;
        this.stripManagedFields = stripManagedFields;
        this.listPageSize = listPageSize;
        this.events = events;
        this.shards = shards;
    }

    boolean stripsManagedFields() {
        return stripManagedFields;
    }

    <T extends HasMetadata> SharedIndexInformer<T> create(InformerKey key, long resyncMillis) {
        @SuppressWarnings("unchecked")
        Class<T> type = (Class<T>) key.type();
        List<FieldSelectors.Term> fields = FieldSelectors.parse(key.fieldSelector());
        String labelSelector = labelSelector(key);
        if (key.metadataOnly()) {
            return MetadataListerWatcher.informer(metadataClient(), type, key.namespace(), labelSelector,
                    fields, listPageSize, resyncMillis, executor(metadataClient()));
        }
        // its watch events read as the type at once, not as generic objects converted one by one
        WatchedKinds.informing(client.getKubernetesSerialization(), type);
        MixedOperation<T, KubernetesResourceList<T>, Resource<T>> resources = client.resources(type);
        FilterWatchListDeletable<T, KubernetesResourceList<T>, Resource<T>> scoped =
                key.namespace() == null ? resources.inAnyNamespace() : resources.inNamespace(key.namespace());
        if (!labelSelector.isEmpty()) {
            scoped = scoped.withLabelSelector(labelSelector);
        }
        for (FieldSelectors.Term term : fields) {
            scoped = term.negated() ? scoped.withoutField(term.field(), term.value())
                    : scoped.withField(term.field(), term.value());
        }
        // without a limit fabric8 lists everything in one response (from the watch cache: resourceVersion=0),
        // which must then fit in the heap at once, all objects parsed and managedFields not yet stripped
        Informable<T> source = listPageSize > 0 ? scoped.withLimit(listPageSize) : scoped;
        // not source.runnableInformer: one object the type cannot read must not stop the whole informer
        return TolerantListerWatcher.informer(client, type, source, key.namespace(), labelSelector, fields,
                resyncMillis, new UnreadableObjects(type, key.describe(), events));
    }

    /** The key's label selector, and for a bucket's informer the bucket's slots. */
    private String labelSelector(InformerKey key) {
        if (!key.sharded()) {
            return key.labelSelector();
        }
        String bucket = shards.selector(key.bucket());
        return key.labelSelector().isEmpty() ? bucket : key.labelSelector() + "," + bucket;
    }

    private synchronized KubernetesClient metadataClient() {
        if (metadataClient == null) {
            metadataClient = new KubernetesClientBuilder().withConfig(client.getConfiguration())
                    .withKubernetesSerialization(client.getKubernetesSerialization())
                    .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor(
                            "kubeloop-metadata-only", MetadataListerWatcher.ACCEPT))
                    .build();
        }
        return metadataClient;
    }

    private static Executor executor(KubernetesClient client) {
        Executor executor = TolerantListerWatcher.informerExecutor(client);
        if (executor == null) {
            throw new IllegalStateException("the metadata-only client is not fabric8's implementation");
        }
        return executor;
    }

    @Override
    public synchronized void close() {
        if (metadataClient != null) {
            metadataClient.close();
            metadataClient = null;
        }
    }
}
