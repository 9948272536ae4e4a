package dev.kubeloop.runtime.cache;

import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeloop.runtime.Causes;
import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager;
import io.fabric8.kubernetes.client.impl.BaseClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.impl.DefaultSharedIndexInformer;
import io.fabric8.kubernetes.client.informers.impl.ListerWatcher;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The list and watch behind an informer that survives objects its Java type cannot read.
 *
 * <p>Why: fabric8 reads a list page into the typed list in one go, so a single object that does
 * not deserialize (a field of the wrong JSON type, written through an older CRD version or under
 * {@code x-kubernetes-preserve-unknown-fields}) fails the whole list: at startup the cache never
 * syncs, later every re-list fails again and the cache stops following the API server, so the
 * healthy objects are no longer reconciled either. In a watch, such an object makes fabric8 close
 * the watch, and its default exception handler then stops the informer for good.
 *
 * <p>How: lists are typed first, so they cost nothing extra while every object reads. Only when a
 * page fails to deserialize is the same page listed again untyped and converted object by object;
 * the objects that do not convert are left out of the cache and handed to {@link UnreadableObjects}
 * (one WARN and one Warning Event per object version). Watches are typed too, until a list had to
 * leave objects out: from then on, until a list reads in full again, the informer watches untyped
 * and converts each event, so that the unreadable objects (which a watch may deliver again) are
 * reported and skipped instead of closing the watch; that costs a second conversion per event, on
 * this informer only. An unreadable event on a typed watch closes it; {@link #retryAfter} has the
 * informer list and watch again (after fabric8's reconnect delay), and that list switches to the
 * untyped watch. So a bad object costs at most one re-list, never a loop. A cached object that
 * turns unreadable leaves the cache: its controllers see it as gone (no reconcile on stale data),
 * until it is fixed.
 *
 * <p>Not covered: fabric8's opt-in watch-list mode ({@code kubernetes.watchList}), which lists
 * through the watch; there an unreadable object still makes the informer retry its list forever.
 *
 * <p>Uses fabric8's informer implementation classes ({@link DefaultSharedIndexInformer},
 * {@link ListerWatcher}), the only way fabric8 7.8 offers to change how an informer lists. Clients
 * that are not fabric8's own implementation (a Mockito mock, say) get fabric8's plain informer.
 * Thread-safe: the informer lists and watches one at a time; the mode flag is volatile, the
 * reporter thread-safe.
 */
final class TolerantListerWatcher<T extends HasMetadata> implements ListerWatcher<T, KubernetesResourceList<T>> {

    /** Reads a failed watch message as a plain tree, to tell an unreadable object from garbage. */
    private static final ObjectMapper EVENT_READER = new ObjectMapper();

    private final ListerWatcher<T, KubernetesResourceList<T>> typed;
    private final ListerWatcher<GenericKubernetesResource, GenericKubernetesResourceList> untyped;
    private final Class<T> type;
    private final KubernetesSerialization serialization;
    private final UnreadableObjects unreadable;
    /** Whether the last list left objects out: watches are then untyped, converted event by event. */
    private volatile boolean leftObjectsOut;

    private TolerantListerWatcher(ListerWatcher<T, KubernetesResourceList<T>> typed,
            ListerWatcher<GenericKubernetesResource, GenericKubernetesResourceList> untyped, Class<T> type,
            KubernetesSerialization serialization, UnreadableObjects unreadable) {
        this.typed = typed;
        this.untyped = untyped;
        this.type = type;
        this.serialization = serialization;
        this.unreadable = unreadable;
    }

    /**
     * An unstarted informer over {@code scoped} (the typed operation, already narrowed to a
     * namespace and the selectors) that leaves unreadable objects out instead of failing.
     */
    @SuppressWarnings("unchecked")
    static <T extends HasMetadata> SharedIndexInformer<T> informer(KubernetesClient client, Class<T> type,
            Informable<T> scoped, String namespace, String labelSelector, List<FieldSelectors.Term> fields,
            long resyncMillis, UnreadableObjects unreadable) {
        MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
                generic = client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(type));
        FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList,
                Resource<GenericKubernetesResource>> untyped = namespace == null ? generic.inAnyNamespace()
                        : generic.inNamespace(namespace);
        if (!labelSelector.isEmpty()) {
            untyped = untyped.withLabelSelector(labelSelector);
        }
        for (FieldSelectors.Term term : fields) {
            untyped = term.negated() ? untyped.withoutField(term.field(), term.value())
                    : untyped.withField(term.field(), term.value());
        }
        Executor executor = informerExecutor(client);
        if (!(scoped instanceof ListerWatcher) || !(untyped instanceof ListerWatcher) || executor == null) {
            return scoped.runnableInformer(resyncMillis);
        }
        TolerantListerWatcher<T> listerWatcher = new TolerantListerWatcher<>(
                (ListerWatcher<T, KubernetesResourceList<T>>) scoped,
                (ListerWatcher<GenericKubernetesResource, GenericKubernetesResourceList>) untyped, type,
                client.getKubernetesSerialization(), unreadable);
        DefaultSharedIndexInformer<T, KubernetesResourceList<T>> informer = new DefaultSharedIndexInformer<>(type,
                listerWatcher, resyncMillis, executor);
        informer.exceptionHandler(TolerantListerWatcher::retryAfter);
        return informer;
    }

    /** The executor fabric8's own informers of this client use; null if the client is not fabric8's implementation. */
    static Executor informerExecutor(KubernetesClient client) {
        try {
            BaseClient base = client.adapt(BaseClient.class);
            return base == null ? null : base.getExecutor();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * fabric8's default (retry once started, except after a watch error), plus: retry after a
     * watch event whose object does not read as the type, because the next list leaves it out. A
     * watch message that is not an object event at all (garbage from a proxy, say) still stops the
     * informer, as fabric8 does.
     */
    static boolean retryAfter(boolean started, Throwable error) {
        if (error instanceof WatcherException watch) {
            return unreadableObject(error) && watch.getRawWatchMessage().filter(TolerantListerWatcher::isObjectEvent)
                    .isPresent();
        }
        return started;
    }

    /** True if {@code message} is a watch event carrying an object with metadata. */
    private static boolean isObjectEvent(String message) {
        try {
            return EVENT_READER.readTree(message).path("object").path("metadata").isObject();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * True if {@code error} says that JSON did not fit the Java type (Jackson's mapping
     * exceptions), not that the response was not JSON at all: a garbled response is a protocol
     * failure, which fabric8's rules handle as before.
     */
    static boolean unreadableObject(Throwable error) {
        List<Throwable> chain = Causes.chain(error);
        return chain.stream().noneMatch(StreamReadException.class::isInstance)
                && chain.stream().anyMatch(JsonMappingException.class::isInstance);
    }

    @Override
    public CompletableFuture<KubernetesResourceList<T>> submitList(ListOptions options) {
        return list(options);
    }

    private CompletableFuture<KubernetesResourceList<T>> list(ListOptions options) {
        ListOptions copy = new ListOptionsBuilder(options).build(); // the typed call may adjust its options
        boolean firstPage = options.getContinue() == null;
        return typed.submitList(options).thenApply(list -> {
            if (firstPage) {
                leftObjectsOut = false;
            }
            return list;
        }).exceptionallyCompose(error -> {
            if (!unreadableObject(error)) {
                return CompletableFuture.failedFuture(error);
            }
            leftObjectsOut = true;
            return untyped.submitList(copy).thenApply(this::readableItems);
        });
    }

    private KubernetesResourceList<T> readableItems(GenericKubernetesResourceList page) {
        List<T> items = new ArrayList<>(page.getItems().size());
        for (GenericKubernetesResource item : page.getItems()) {
            try {
                items.add(serialization.convertValue(item, type));
            } catch (RuntimeException e) { // Jackson reports a mismatch as IllegalArgumentException
                unreadable.report(item, e);
            }
        }
        DefaultKubernetesResourceList<T> list = new DefaultKubernetesResourceList<>();
        list.setMetadata(page.getMetadata());
        list.setItems(items);
        return list;
    }

    @Override
    @SuppressWarnings("unchecked")
    public CompletableFuture<AbstractWatchManager<T>> submitWatch(ListOptions options, Watcher<T> watcher) {
        if (!leftObjectsOut) {
            return typed.submitWatch(options, watcher);
        }
        // the informer only closes and polls the watch manager, whatever type its events had
        CompletableFuture<?> watch = untyped.submitWatch(options, new ConvertingWatcher(watcher));
        return (CompletableFuture<AbstractWatchManager<T>>) watch;
    }

    /**
     * An object of the type with only the key and version of {@code object}, to delete it from the
     * cache; null if the type cannot be instantiated.
     */
    private T stub(GenericKubernetesResource object) {
        try {
            T stub = type.getDeclaredConstructor().newInstance();
            stub.setMetadata(new ObjectMetaBuilder().withNamespace(object.getMetadata().getNamespace())
                    .withName(object.getMetadata().getName()).withUid(object.getMetadata().getUid())
                    .withResourceVersion(object.getMetadata().getResourceVersion()).build());
            return stub;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Hands the informer's watcher each untyped event as the typed object; an event that does not
     * convert is reported and skipped, except that a modified or deleted object is deleted from
     * the cache (its cached version is stale).
     */
    private final class ConvertingWatcher implements Watcher<GenericKubernetesResource> {

        private final Watcher<T> delegate;

        ConvertingWatcher(Watcher<T> delegate) {
            this.delegate = delegate;
        }

        @Override
        public void eventReceived(Action action, GenericKubernetesResource object) {
            T converted;
            try {
                converted = serialization.convertValue(object, type);
            } catch (RuntimeException e) {
                unreadable.report(object, e);
                T stub = action == Action.MODIFIED || action == Action.DELETED ? stub(object) : null;
                if (stub != null) {
                    delegate.eventReceived(Action.DELETED, stub);
                }
                return;
            }
            delegate.eventReceived(action, converted);
        }

        @Override
        public boolean reconnecting() {
            return delegate.reconnecting();
        }

        @Override
        public void onClose() {
            delegate.onClose();
        }

        @Override
        public void onClose(WatcherException cause) {
            delegate.onClose(cause);
        }
    }

    @Override
    public Long getLimit() {
        return typed.getLimit();
    }

    @Override
    public int getWatchReconnectInterval() {
        return typed.getWatchReconnectInterval();
    }

    @Override
    public String getApiEndpointPath() {
        return typed.getApiEndpointPath();
    }

    @Override
    public Config getConfig() {
        return typed.getConfig();
    }
}
