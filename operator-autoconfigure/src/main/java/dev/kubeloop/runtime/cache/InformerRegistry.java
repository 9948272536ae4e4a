package dev.kubeloop.runtime.cache;

import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates and shares the fabric8 {@link SharedIndexInformer}s of all controllers: one informer per
 * {@link InformerKey} (type, namespace, label selector), whoever asks for it, so two reconcilers of
 * one type cost one list and one watch. A scope of several namespaces is one informer per
 * namespace, aggregated by {@link ResourceCache}.
 *
 * <p>Two phases. While registering, controllers add their event handlers (fabric8's
 * {@link ResourceEventHandler}s: the cache knows nothing of work queues; the handler package adapts
 * them) and indexes; nothing talks to the API server. {@link #start()} then creates every informer with all of its handlers
 * and indexes in place (fabric8 fixes an informer's resync check period and item store when it
 * starts) and starts them; {@link #awaitSynced} waits for their first lists.
 *
 * <p>Informers leave out objects their type cannot read, instead of failing their whole list (see
 * {@link TolerantListerWatcher}); each such object is reported once per version, as a WARN and a
 * Warning Event.
 *
 * <p>Every informer also gets an item store whose size is cheap to read (for the cached objects
 * gauge), a count of its re-lists (watch restarts: its first handler is wrapped to count them, since
 * one more fabric8 listener would cost every event one more dispatch), and a hook on its end: an
 * informer that had synced and then stopped with an error (fabric8 retries 410 Gone and failed
 * lists, but not every watch error) is reported to the {@link FailureListener}, because its cache
 * no longer follows the API server.
 *
 * <p>Thread-safety: registration, start and stop are synchronized on this registry. An
 * {@link Entry}'s informer and store are published through volatile fields, so caches can be read
 * from any thread once started; its counters are concurrent.
 */
public final class InformerRegistry {

    private static final Logger log = LoggerFactory.getLogger(InformerRegistry.class);

    private final KubernetesClient client;
    private final boolean stripManagedFields;
    /** Objects per page of an informer's list; 0 lists everything in one response. */
    private final long listPageSize;
    private final FailureListener failures;
    /** Warning Events about objects an informer cannot read. */
    private final EventRecorder events;
    // guarded by this
    private final Map<InformerKey, Entry<?>> entries = new LinkedHashMap<>();
    private boolean started;
    /** Set when stop begins, so that informers ending on request are not reported as failed. */
    private volatile boolean stopping;

    public InformerRegistry(KubernetesClient client, boolean stripManagedFields, long listPageSize,
            FailureListener failures, EventRecorder events) {
        this.client = client;
        this.stripManagedFields = stripManagedFields;
        this.listPageSize = listPageSize;
        this.failures = failures;
        this.events = events;
    }

    /** Hears about an informer that stopped for good after it had synced. Must be thread-safe and fast. */
    @FunctionalInterface
    public interface FailureListener {
        void informerFailed(InformerStatus informer, Throwable error);
    }

    /**
     * Makes the handler of one informer. Called once per informer of a registration's scope (one
     * per namespace of a namespace list), because a handler may keep per-informer state (such as
     * whether the first list has been delivered).
     */
    @FunctionalInterface
    public interface HandlerFactory<T> {
        /** @param informer the informer's description, for logs: {@code widgets.kubeloop.dev in namespace a} */
        ResourceEventHandler<T> handlerFor(String informer);
    }

    /**
     * Registers interest in {@code type} within {@code namespaces} (empty: all) and
     * {@code labelSelector}, and returns the cache view for that scope.
     *
     * @param ownerIndex whether the informers need the {@link OwnerIndex}
     * @param handlers makes the handler of each informer in the scope; null for none
     * @param resync how often the handler gets every object replayed; zero for never
     */
    public synchronized <T extends HasMetadata> ResourceCache<T> register(Class<T> type, Set<String> namespaces,
            String labelSelector, boolean ownerIndex, HandlerFactory<T> handlers, Duration resync) {
        if (started) {
            throw new IllegalStateException("informers are already started; register before starting");
        }
        List<String> scopes = new ArrayList<>();
        if (namespaces.isEmpty() || !Namespaced.class.isAssignableFrom(type)) {
            scopes.add(null);
        } else {
            scopes.addAll(namespaces);
        }
        List<Entry<T>> scoped = new ArrayList<>();
        for (String namespace : scopes) {
            InformerKey key = new InformerKey(type, namespace, labelSelector);
            @SuppressWarnings("unchecked")
            Entry<T> entry = (Entry<T>) entries.computeIfAbsent(key, Entry::new);
            entry.ownerIndex |= ownerIndex;
            if (handlers != null) {
                entry.handlers.add(new Registration<>(handlers.handlerFor(key.describe()), resync.toMillis()));
            }
            scoped.add(entry);
        }
        return new ResourceCache<>(type, scoped);
    }

    /** How many informers {@link #start()} creates (or created). */
    public synchronized int size() {
        return entries.size();
    }

    /** Creates and starts every registered informer; returns without waiting for their lists. */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("informers are already started");
        }
        started = true;
        for (Entry<?> entry : entries.values()) {
            startInformer(entry);
        }
    }

    private <T extends HasMetadata> void startInformer(Entry<T> entry) {
        InformerKey key = entry.key();
        @SuppressWarnings("unchecked")
        Class<T> type = (Class<T>) key.type();
        MixedOperation<T, KubernetesResourceList<T>, Resource<T>> resources = client.resources(type);
        FilterWatchListDeletable<T, KubernetesResourceList<T>, Resource<T>> scoped =
                key.namespace() == null ? resources.inAnyNamespace() : resources.inNamespace(key.namespace());
        if (!key.labelSelector().isEmpty()) {
            scoped = scoped.withLabelSelector(key.labelSelector());
        }
        // fabric8 checks for due resyncs at the informer's period and gives each handler
        // max(its own period, that check period): create it with the shortest wanted period.
        long checkPeriod = entry.handlers.stream().mapToLong(Registration::resyncMillis).filter(m -> m > 0)
                .min().orElse(0);
        // without a limit fabric8 lists everything in one response (from the watch cache: resourceVersion=0),
        // which must then fit in the heap at once, all objects parsed and managedFields not yet stripped
        Informable<T> source = listPageSize > 0 ? scoped.withLimit(listPageSize) : scoped;
        // not source.runnableInformer: one object the type cannot read must not stop the whole informer
        SharedIndexInformer<T> informer = TolerantListerWatcher.informer(client, type, source, key.namespace(),
                key.labelSelector(), checkPeriod, new UnreadableObjects(type, key.describe(), events));
        // fabric8's default store is a BasicItemStore too; owning it gives a size() without copying the cache
        ItemStore<T> store = stripManagedFields ? new ManagedFieldsStrippingStore<>()
                : new BasicItemStore<>(Cache::metaNamespaceKeyFunc);
        informer.itemStore(store);
        entry.store = store;
        if (entry.ownerIndex) {
            informer.addIndexers(Map.of(OwnerIndex.NAME, OwnerIndex::controllerOwnerUid));
        }
        boolean first = true;
        for (Registration<T> registration : entry.handlers) {
            ResourceEventHandler<T> handler = first ? new RelistCounting<>(registration.handler(), entry.watchRestarts)
                    : registration.handler();
            informer.addEventHandlerWithResyncPeriod(handler, registration.resyncMillis());
            first = false;
        }
        entry.informer = informer;
        entry.started = informer.start().toCompletableFuture();
        informer.stopped().whenComplete((ignored, error) -> {
            if (error != null) {
                stoppedWithError(entry, error);
            }
        });
        log.debug("Informer started: {} (handlers={}, ownerIndex={})", key.describe(), entry.handlers.size(),
                entry.ownerIndex);
    }

    private void stoppedWithError(Entry<?> entry, Throwable error) {
        boolean hadSynced = entry.started.isDone() && !entry.started.isCompletedExceptionally();
        if (stopping || !hadSynced) {
            return; // a failed first list fails the start instead (awaitSynced)
        }
        entry.failure = error;
        log.error("Informer stopped after an error and no longer follows the API server: informer={}: {}",
                entry.key().describe(), error.toString());
        failures.informerFailed(entry.status(), error);
    }

    /**
     * Waits until every informer has completed its first list, within {@code timeout} in total.
     *
     * @throws KubeloopConfigurationException naming the first informer that failed or did not sync
     * @throws InterruptedException if interrupted while waiting
     */
    public void awaitSynced(Duration timeout) throws InterruptedException {
        List<Entry<?>> snapshot;
        synchronized (this) {
            snapshot = List.copyOf(entries.values());
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Entry<?> entry : snapshot) {
            try {
                entry.started.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new KubeloopConfigurationException("The cache of " + entry.key().describe()
                        + " did not sync within " + timeout.toMillis() + " ms from the API server at "
                        + client.getMasterUrl() + ".",
                        "Check that the API server is reachable and that the operator's service account may list "
                                + "and watch " + HasMetadata.getFullResourceName(entry.key().type())
                                + ", or raise kubeloop.cache-sync-timeout.");
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                throw new KubeloopConfigurationException("Cannot list and watch " + entry.key().describe()
                        + " on the API server at " + client.getMasterUrl() + ": " + cause.getMessage(),
                        "Check that the resource exists on the cluster and that the operator's service account "
                                + "may list and watch it (RBAC).", cause);
            }
        }
    }

    /** True once every informer has completed its first list. */
    public synchronized boolean hasSynced() {
        for (Entry<?> entry : entries.values()) {
            if (entry.informer == null || !entry.informer.hasSynced()) {
                return false;
            }
        }
        return started;
    }

    /** Snapshots of every informer, in registration order. */
    public synchronized List<InformerStatus> statuses() {
        return entries.values().stream().map(Entry::status).toList();
    }

    /** Stops every informer (closing its watch). Idempotent. */
    public synchronized void stop() {
        stopping = true;
        for (Entry<?> entry : entries.values()) {
            if (entry.informer != null) {
                try {
                    entry.informer.stop();
                } catch (RuntimeException e) {
                    log.warn("Informer did not stop cleanly: {}: {}", entry.key().describe(), e.toString());
                }
            }
        }
    }

    private record Registration<T>(ResourceEventHandler<T> handler, long resyncMillis) {
    }

    /**
     * Counts an informer's re-lists around its first handler: fabric8 calls {@code onBeforeList}
     * before every list with the last synced resource version, which is null only before the first
     * one. A re-list happens when the watch expired (410 Gone) or failed and fabric8 listed and
     * watched again; its transparent reconnects of a healthy watch do not re-list.
     */
    private record RelistCounting<T>(ResourceEventHandler<T> delegate, LongAdder relists)
            implements ResourceEventHandler<T> {

        @Override
        public void onBeforeList(String lastSyncResourceVersion) {
            if (lastSyncResourceVersion != null) {
                relists.increment();
            }
            delegate.onBeforeList(lastSyncResourceVersion);
        }

        @Override
        public void onList(String resourceVersion, boolean remainedEmpty) {
            delegate.onList(resourceVersion, remainedEmpty);
        }

        @Override
        public void onAdd(T object) {
            delegate.onAdd(object);
        }

        @Override
        public void onUpdate(T oldObject, T newObject) {
            delegate.onUpdate(oldObject, newObject);
        }

        @Override
        public void onDelete(T object, boolean deletedFinalStateUnknown) {
            delegate.onDelete(object, deletedFinalStateUnknown);
        }

        @Override
        public void onNothing() {
            delegate.onNothing();
        }
    }

    /**
     * One shared informer and what its users asked of it. Registration fields are guarded by the
     * registry's lock and frozen at start; the informer is published once, at start.
     */
    static final class Entry<T extends HasMetadata> {
        private final InformerKey key;
        private final List<Registration<T>> handlers = new ArrayList<>();
        private boolean ownerIndex;
        private final LongAdder watchRestarts = new LongAdder();
        private volatile SharedIndexInformer<T> informer;
        private volatile ItemStore<T> store;
        private volatile CompletableFuture<Void> started = new CompletableFuture<>();
        private volatile Throwable failure;

        Entry(InformerKey key) {
            this.key = key;
        }

        InformerKey key() {
            return key;
        }

        /** The informer, or null before the registry started. */
        SharedIndexInformer<T> informer() {
            return informer;
        }

        /** fabric8's isWatching can throw while a watch is being replaced or stopped; that is "not watching". */
        private static boolean watching(SharedIndexInformer<?> informer) {
            try {
                return informer != null && informer.isWatching();
            } catch (RuntimeException e) {
                return false;
            }
        }

        InformerStatus status() {
            Class<? extends HasMetadata> type = key.type();
            SharedIndexInformer<T> current = informer;
            ItemStore<T> items = store;
            Throwable error = failure;
            String group = HasMetadata.getGroup(type);
            return new InformerStatus(HasMetadata.getFullResourceName(type), group == null ? "" : group,
                    HasMetadata.getVersion(type), HasMetadata.getKind(type), key.namespace(), key.labelSelector(),
                    current != null, current != null && current.hasSynced(), watching(current),
                    items == null ? 0 : items.size(), watchRestarts.sum(),
                    error == null ? null : error.toString());
        }
    }
}
