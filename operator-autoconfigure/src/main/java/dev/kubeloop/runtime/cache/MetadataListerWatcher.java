package dev.kubeloop.runtime.cache;

import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.impl.DefaultSharedIndexInformer;
import io.fabric8.kubernetes.client.informers.impl.ListerWatcher;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The list and watch behind a metadata-only informer: the API server is asked for
 * {@code PartialObjectMetadata} (client-go's metadata client: an {@code Accept} header with
 * {@code as=PartialObjectMetadataList;g=meta.k8s.io;v=v1}), so it sends names, labels, annotations,
 * owner references and versions instead of whole objects; and every object is cached as an
 * instance of the watched type holding only that metadata, whatever the server sent (fabric8's
 * mock server ignores the header and sends whole objects: the cache still keeps metadata only).
 *
 * <p>fabric8 7.8 has no metadata-only requests (its issue 5716), hence the header set by an
 * {@link Interceptor} on a client of its own ({@link #ACCEPT}), and this {@link ListerWatcher}
 * over a generic operation, which reads any response as generic objects. Thread-safe: the informer
 * lists and watches one at a time; this class holds no mutable state.
 */
final class MetadataListerWatcher<T extends HasMetadata> implements ListerWatcher<T, KubernetesResourceList<T>> {

    /** Adds the metadata-only {@code Accept} header to every request of the client it is installed on. */
    static final Interceptor ACCEPT = new Interceptor() {
        @Override
        public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            String query = request.uri().getRawQuery();
            boolean watch = query != null && query.contains("watch=true");
            builder.setHeader("Accept", "application/json;as=" + (watch ? "PartialObjectMetadata"
                    : "PartialObjectMetadataList") + ";g=meta.k8s.io;v=v1,application/json");
        }
    };

    private final ListerWatcher<GenericKubernetesResource, GenericKubernetesResourceList> untyped;
    private final Constructor<T> constructor;

    private MetadataListerWatcher(ListerWatcher<GenericKubernetesResource, GenericKubernetesResourceList> untyped,
            Constructor<T> constructor) {
        this.untyped = untyped;
        this.constructor = constructor;
    }

    /**
     * An unstarted metadata-only informer.
     *
     * @param metadataClient a client with {@link #ACCEPT} installed
     * @param fields the field selector's terms
     * @param pageSize objects per list page; 0 for one response
     */
    @SuppressWarnings("unchecked")
    static <T extends HasMetadata> SharedIndexInformer<T> informer(KubernetesClient metadataClient, Class<T> type,
            String namespace, String labelSelector, List<FieldSelectors.Term> fields, long pageSize,
            long resyncMillis, Executor executor) {
        FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList,
                Resource<GenericKubernetesResource>> scoped = namespace == null
                        ? metadataClient.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(type))
                                .inAnyNamespace()
                        : metadataClient.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(type))
                                .inNamespace(namespace);
        if (!labelSelector.isEmpty()) {
            scoped = scoped.withLabelSelector(labelSelector);
        }
        for (FieldSelectors.Term term : fields) {
            scoped = term.negated() ? scoped.withoutField(term.field(), term.value())
                    : scoped.withField(term.field(), term.value());
        }
        Informable<GenericKubernetesResource> paged = pageSize > 0 ? scoped.withLimit(pageSize) : scoped;
        MetadataListerWatcher<T> listerWatcher = new MetadataListerWatcher<>(
                (ListerWatcher<GenericKubernetesResource, GenericKubernetesResourceList>) paged, constructor(type));
        return new DefaultSharedIndexInformer<>(type, listerWatcher, resyncMillis, executor);
    }

    /**
     * The public no-argument constructor metadata-only objects are made with.
     *
     * @throws IllegalArgumentException if {@code type} has none
     */
    static <T> Constructor<T> constructor(Class<T> type) {
        try {
            return type.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(type.getName() + " has no public no-argument constructor, which a "
                    + "metadata-only watch needs to make objects that carry only metadata", e);
        }
    }

    /** An instance of the type with only {@code object}'s metadata: apiVersion and kind are the type's own. */
    private T metadataOnly(HasMetadata object) {
        try {
            T stripped = constructor.newInstance();
            stripped.setMetadata(object.getMetadata());
            return stripped;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot instantiate " + constructor.getDeclaringClass().getName(), e);
        }
    }

    @Override
    public CompletableFuture<KubernetesResourceList<T>> submitList(ListOptions options) {
        return untyped.submitList(options).thenApply(page -> {
            // the API server writes an empty PartialObjectMetadataList's items as null
            List<GenericKubernetesResource> received = page.getItems() == null ? List.of() : page.getItems();
            List<T> items = new ArrayList<>(received.size());
            for (GenericKubernetesResource item : received) {
                items.add(metadataOnly(item));
            }
            DefaultKubernetesResourceList<T> list = new DefaultKubernetesResourceList<>();
            list.setMetadata(page.getMetadata());
            list.setItems(items);
            return list;
        });
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public CompletableFuture<AbstractWatchManager<T>> submitWatch(ListOptions options, Watcher<T> watcher) {
        // the server's events carry PartialObjectMetadata (or whole objects): take any object with metadata
        Watcher metadataWatcher = new Watcher<HasMetadata>() {
            @Override
            public void eventReceived(Action action, HasMetadata object) {
                watcher.eventReceived(action, metadataOnly(object));
            }

            @Override
            public boolean reconnecting() {
                return watcher.reconnecting();
            }

            @Override
            public void onClose() {
                watcher.onClose();
            }

            @Override
            public void onClose(WatcherException cause) {
                watcher.onClose(cause);
            }
        };
        // the informer only closes and polls the watch manager, whatever type its events had
        CompletableFuture<?> watch = untyped.submitWatch(options, metadataWatcher);
        return (CompletableFuture<AbstractWatchManager<T>>) watch;
    }

    @Override
    public Long getLimit() {
        return untyped.getLimit();
    }

    @Override
    public int getWatchReconnectInterval() {
        return untyped.getWatchReconnectInterval();
    }

    @Override
    public String getApiEndpointPath() {
        return untyped.getApiEndpointPath();
    }

    @Override
    public Config getConfig() {
        return untyped.getConfig();
    }
}
