package dev.kubeloop.runtime.cache;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import io.fabric8.kubernetes.api.model.HasMetadata;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shared informer and what its users asked of it: handlers, indexes, whether the owner index
 * is needed, and whether its type is optional (every user said so). It starts its fabric8 informer
 * and, for an optional type, stops it when the type goes and starts a new one when it comes back.
 *
 * <p>State ownership: the registration fields are written under the {@link InformerRegistry}'s
 * lock before start and never after. The informer, its store, its start future, its failure and
 * whether it waits for its type are written by the registry (start, stop) and the optional types'
 * monitor, serialized by this entry's monitor, and published through volatile fields, so that
 * caches and status readers on any thread see a consistent informer.
 */
final class InformerEntry<T extends HasMetadata> {

    private static final Logger log = LoggerFactory.getLogger(InformerEntry.class);

    private final InformerKey key;
    private final List<Registration<T>> registrations = new ArrayList<>();
    private final Map<String, DeclaredIndex<T>> indexes = new LinkedHashMap<>();
    private boolean ownerIndex;
    private boolean optional = true;
    private final LongAdder watchRestarts = new LongAdder();
    private final ListWatchHealth listWatch = new ListWatchHealth();
    private volatile SharedIndexInformer<T> informer;
    private volatile ItemStore<T> store;
    private volatile CompletableFuture<Void> started = new CompletableFuture<>();
    private volatile CompletableFuture<Void> handedOver = new CompletableFuture<>();
    /**
     * For an optional type: the objects the handlers have been given and not yet told deleted, by
     * key (written on the informer's event executor). When the type goes, these are the objects
     * reported deleted: the store drops an object as soon as its watch event arrives, but stopping
     * the informer discards the notifications still on their way to the handlers, so the store
     * alone would lose those deletes.
     */
    private volatile Map<String, T> delivered;
    private volatile Throwable failure;
    private volatile boolean waiting;

    /** A handler and its resync period. */
    record Registration<T>(ResourceEventHandler<T> handler, long resyncMillis) {
    }

    /** An index as declared (the function, who declared it first) and as the informer runs it. */
    private record DeclaredIndex<T>(Function<T, List<String>> declared, String declarer,
            Function<T, List<String>> namespaced) {
    }

    InformerEntry(InformerKey key) {
        this.key = key;
    }

    InformerKey key() {
        return key;
    }

    /** Adds what one request asks of this informer; before start only. */
    void add(CacheRequest<T> request, ResourceEventHandler<T> handler) {
        ownerIndex |= request.ownerIndex();
        optional &= request.optional();
        request.indexes().forEach((name, values) -> {
            DeclaredIndex<T> existing = indexes.get(name);
            if (existing == null) {
                indexes.put(name, new DeclaredIndex<>(values, request.declarer(), Indexes.namespaced(values)));
            } else if (existing.declared() != values) {
                throw new KubeloopConfigurationException("The index '" + name + "' on " + key.describe()
                        + " is declared twice with different functions: by " + existing.declarer() + " and by "
                        + request.declarer() + ". One informer holds one index of a name.",
                        "rename one of the indexes, or declare it once and read it from both");
            }
            // the same function again (owned and watched caches of one kind share this informer): one index
        });
        if (handler != null) {
            registrations.add(new Registration<>(handler, request.resync().toMillis()));
        }
    }

    /** True if every request for it allowed the type to be absent. */
    boolean optional() {
        return optional;
    }

    /** The informer, or null before start and while an optional type is absent. */
    SharedIndexInformer<T> informer() {
        return informer;
    }

    int handlerCount() {
        return registrations.size();
    }

    /**
     * Whether it counts for readiness and status: always, except a bucket's informer while this
     * replica does not hold the bucket (it is not running, and is not meant to).
     */
    boolean counts() {
        return !key.sharded() || informer != null;
    }

    /** Whether this optional informer waits for its type to be served. */
    boolean waiting() {
        return waiting;
    }

    /** Completes when the current informer's first list completed (or failed). */
    CompletableFuture<Void> started() {
        return started;
    }

    /**
     * Completes when the current informer's first list completed and every handler has received
     * that list's adds (fails if the list failed). fabric8 marks an informer synced when its store
     * holds the list, but hands the adds to the handlers later, on its event executor: a controller
     * whose workers started on a synced store would get those adds again, for keys it already
     * reconciled, and reconcile them twice (client-go's handler registration {@code HasSynced}
     * waits for the same).
     */
    CompletableFuture<Void> synced() {
        return started.thenCompose(ignored -> handedOver);
    }

    /** Whether {@link #synced()} has completed normally for the current informer. */
    boolean hasSynced() {
        SharedIndexInformer<T> current = informer;
        return current != null && current.hasSynced() && handedOver.isDone();
    }

    Throwable failure() {
        return failure;
    }

    /**
     * Creates and starts the informer with every handler, index and the store in place.
     *
     * @param stoppedWithError called if the informer stops by itself with an error
     */
    synchronized void start(InformerFactory factory, BiConsumer<InformerEntry<T>, Throwable> stoppedWithError) {
        if (informer != null) {
            return;
        }
        // fabric8 checks for due resyncs at the informer's period and gives each handler
        // max(its own period, that check period): create it with the shortest wanted period.
        long checkPeriod = registrations.stream().mapToLong(Registration::resyncMillis).filter(m -> m > 0).min()
                .orElse(0);
        listWatch.reset();
        SharedIndexInformer<T> created = factory.create(key, checkPeriod);
        // fabric8's default store is a BasicItemStore too; owning it gives a size() without copying the cache
        ItemStore<T> createdStore = factory.stripsManagedFields() ? new ManagedFieldsStrippingStore<>()
                : new BasicItemStore<>(Cache::metaNamespaceKeyFunc);
        created.itemStore(createdStore);
        Map<String, Function<T, List<String>>> indexers = new LinkedHashMap<>();
        indexes.forEach((name, index) -> indexers.put(name, index.namespaced()));
        if (ownerIndex) {
            indexers.put(OwnerIndex.NAME, OwnerIndex::controllerOwnerUid);
        }
        if (!indexers.isEmpty()) {
            created.addIndexers(indexers);
        }
        CompletableFuture<Void> listed = new CompletableFuture<>();
        AtomicInteger listing = new AtomicInteger(registrations.size());
        if (registrations.isEmpty()) {
            listed.complete(null);
        }
        Map<String, T> given = optional && !registrations.isEmpty() ? new ConcurrentHashMap<>() : null;
        boolean first = true;
        for (Registration<T> registration : registrations) {
            // the first handler also counts re-lists and keeps what was given: fabric8 hands every
            // notification to all handlers in turn, and one more listener would cost every event a dispatch
            created.addEventHandlerWithResyncPeriod(new Tracking<>(registration.handler(), first ? watchRestarts : null,
                    first ? given : null, () -> {
                        if (listing.decrementAndGet() == 0) {
                            listed.complete(null);
                        }
                    }), registration.resyncMillis());
            first = false;
        }
        handedOver = listed;
        delivered = given;
        failure = null;
        waiting = false;
        store = createdStore;
        started = created.start().toCompletableFuture();
        informer = created;
        created.stopped().whenComplete((ignored, error) -> {
            if (error != null) {
                stoppedWithError.accept(this, error);
            }
        });
        log.debug("Informer started: {} (handlers={}, indexes={})", key.describe(), registrations.size(),
                indexers.keySet());
    }

    /**
     * Stops the informer. When {@code typeGone}, the cached objects are reported to the handlers as
     * deleted first (the API server deleted them with their CRD, or can no longer tell), and the
     * entry waits for its type to come back.
     */
    synchronized void stop(boolean typeGone) {
        SharedIndexInformer<T> current = informer;
        if (current == null) {
            waiting |= typeGone;
            return;
        }
        informer = null;
        store = null;
        listWatch.reset(); // stopped on purpose: whatever failed, it is not failing now
        try {
            current.stop();
        } catch (RuntimeException e) {
            log.warn("Informer did not stop cleanly: {}: {}", key.describe(), e.toString());
        }
        if (typeGone) {
            waiting = true;
            started = new CompletableFuture<>();
            Map<String, T> given = delivered;
            delivered = null;
            for (T object : given != null ? List.copyOf(given.values()) : current.getStore().list()) {
                for (Registration<T> registration : registrations) {
                    try {
                        registration.handler().onDelete(object, true);
                    } catch (RuntimeException e) {
                        log.error("Event handler failed on delete: informer={}", key.describe(), e);
                    }
                }
            }
        }
    }

    /** Records that the informer stopped for good with {@code error}. */
    void failed(Throwable error) {
        failure = error;
    }

    /** fabric8's isWatching can throw while a watch is being replaced or stopped; that is "not watching". */
    private static boolean watching(SharedIndexInformer<?> informer) {
        try {
            return informer != null && informer.isWatching();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * One sample of whether the running informer lists and watches ({@link ListWatchMonitor}). Not
     * while it does not run, stopped for good (that is its {@link #failure()}), or has yet to
     * complete its first list (the start waits for that and reports it).
     */
    ListWatchHealth.Transition checkListWatch(long nanos, Duration failingAfter, Supplier<String> reason) {
        SharedIndexInformer<T> current = informer;
        CompletableFuture<Void> first = started;
        if (current == null || failure != null || !first.isDone() || first.isCompletedExceptionally()) {
            return ListWatchHealth.Transition.NONE;
        }
        return listWatch.check(watching(current), nanos, failingAfter, reason);
    }

    /** How long its last list/watch failure lasted. */
    Duration listWatchFailedFor() {
        return listWatch.lastFailedFor();
    }

    /** How many objects the running informer caches, without copying them; 0 while it does not run. */
    int cachedObjects() {
        ItemStore<T> items = store;
        return informer == null || items == null ? 0 : items.size();
    }

    InformerStatus status() {
        Class<? extends HasMetadata> type = key.type();
        SharedIndexInformer<T> current = informer;
        ItemStore<T> items = store;
        Throwable error = failure;
        String group = HasMetadata.getGroup(type);
        return new InformerStatus(HasMetadata.getFullResourceName(type), group == null ? "" : group,
                HasMetadata.getVersion(type), HasMetadata.getKind(type), key.namespace(), key.labelSelector(),
                key.fieldSelector(), key.metadataOnly(), optional, waiting, current != null,
                hasSynced(), watching(current), items == null ? 0 : items.size(),
                watchRestarts.sum(), error == null ? null : error.toString(), key.bucket(), listWatch.failingSince(),
                listWatch.reason(), listWatch.failures());
    }

    /**
     * Wraps each handler: runs {@code firstList} when the handler has received its first list's
     * adds ({@code onList} follows them on the same serial executor), and around the first handler
     * counts re-lists: fabric8 calls {@code onBeforeList} before every list with the last synced
     * resource version, which is null only before the first one. A re-list happens when the watch
     * expired (410 Gone) or failed and fabric8 listed and watched again; its transparent reconnects
     * of a healthy watch do not re-list. {@code listed} is only touched on that serial executor.
     */
    private static final class Tracking<T extends HasMetadata> implements ResourceEventHandler<T> {
        private final ResourceEventHandler<T> delegate;
        private final LongAdder relists;
        private final Map<String, T> given;
        private final Runnable firstList;
        private boolean listed;

        /** {@code relists} and {@code given} may be null: not counted, not kept. */
        Tracking(ResourceEventHandler<T> delegate, LongAdder relists, Map<String, T> given, Runnable firstList) {
            this.delegate = delegate;
            this.relists = relists;
            this.given = given;
            this.firstList = firstList;
        }

        @Override
        public void onBeforeList(String lastSyncResourceVersion) {
            if (relists != null && lastSyncResourceVersion != null) {
                relists.increment();
            }
            delegate.onBeforeList(lastSyncResourceVersion);
        }

        @Override
        public void onList(String resourceVersion, boolean remainedEmpty) {
            try {
                delegate.onList(resourceVersion, remainedEmpty);
            } finally {
                if (!listed) {
                    listed = true;
                    firstList.run();
                }
            }
        }

        @Override
        public void onAdd(T object) {
            if (given != null) {
                given.put(Cache.metaNamespaceKeyFunc(object), object);
            }
            delegate.onAdd(object);
        }

        @Override
        public void onUpdate(T oldObject, T newObject) {
            if (given != null) {
                given.put(Cache.metaNamespaceKeyFunc(newObject), newObject);
            }
            delegate.onUpdate(oldObject, newObject);
        }

        @Override
        public void onDelete(T object, boolean deletedFinalStateUnknown) {
            if (given != null) {
                given.remove(Cache.metaNamespaceKeyFunc(object));
            }
            delegate.onDelete(object, deletedFinalStateUnknown);
        }

        @Override
        @SuppressWarnings("deprecation") // fabric8 still calls it (a list found nothing): the delegate hears it too
        public void onNothing() {
            delegate.onNothing();
        }
    }
}
