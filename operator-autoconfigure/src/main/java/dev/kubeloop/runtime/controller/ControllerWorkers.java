package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.predicate.EventPredicate;
import dev.kubeloop.api.predicate.Predicates;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.queue.PriorityWorkQueue;
import dev.kubeloop.queue.RateLimiter;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.runtime.NamedThreadFactory;
import dev.kubeloop.runtime.Tracing;
import dev.kubeloop.runtime.cache.CacheRequest;
import dev.kubeloop.runtime.cache.InformerRegistry;
import dev.kubeloop.runtime.cache.ResourceCache;
import dev.kubeloop.runtime.client.FencedClients;
import dev.kubeloop.runtime.client.WriteTracker;
import dev.kubeloop.runtime.handler.EnqueueRequestForObject;
import dev.kubeloop.runtime.handler.EnqueueRequestForOwner;
import dev.kubeloop.runtime.handler.EnqueueRequestsFromMapper;
import dev.kubeloop.runtime.handler.EventHandler;
import dev.kubeloop.runtime.handler.EventObserver;
import dev.kubeloop.runtime.handler.InformerEventAdapter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The working side of one reconciler: it wires the reconciler's informer events to its own work
 * queue, and runs its pool of {@code workers} threads named {@code kubeloop-<name>-<n>}, each
 * looping get key → {@link ReconcileHandler} → done. The {@code ControllerManager} creates and
 * drives it; everyone else sees the {@link Controller} view ({@link #controller()}).
 *
 * <p>A slow or failing key holds one worker and nothing else: the queue never hands one key to two
 * workers, and never holds other keys back.
 *
 * <p>Workers can be started and paused any number of times while the controller runs (leader
 * election pauses them on a standby): a pause stops taking keys at once and interrupts reconciles
 * in flight, but keeps the queue, which goes on collecting keys from the informers, so the next
 * start picks up where the events left off. Shutdown, in contrast, is final: it shuts the queue
 * down.
 *
 * <p>State ownership: worker pools are created by {@link #startWorkers()} and ended by
 * {@link #pauseWorkers} or {@link #stopWorkers}, all synchronized on this object and called by the
 * manager; {@code stopping} is a volatile flag written once by the manager, a pool's
 * {@code paused} flag is volatile and written once; {@code workerFailure} is volatile, written by a
 * dying worker; the alive count is atomic. The queue and the activity are thread-safe.
 *
 * @param <T> the primary resource type
 */
public final class ControllerWorkers<T extends HasMetadata> {

    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    /** The order in which the API server lists objects: cluster-scoped first, then by namespace and name. */
    private static final Comparator<ObjectKey> LIST_ORDER = Comparator
            .comparing(ObjectKey::namespace, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(ObjectKey::name);

    private final ControllerConfig<T> config;
    private final PriorityWorkQueue<ObjectKey> queue;
    private final ResourceCache<T> primaryCache;
    private final ControllerCaches caches;
    /** The function each declared index runs in the informers, made once (see {@link #register}). */
    private final Map<WatchDeclarations.Index<?>, Function<?, List<String>>> indexers = new HashMap<>();
    private final ReconcileHandler<T> handler;
    private final ControllerListener listener;
    /** Tells read-your-writes what every informer this controller reads delivers. */
    private final EventObserver<HasMetadata> observer;
    private final Controller<T> controller;
    private final AtomicInteger aliveWorkers = new AtomicInteger();
    /** One factory for every pool, so that the threads of a restarted pool get new numbers. */
    private final NamedThreadFactory threads;
    private volatile Throwable workerFailure;
    /** The pool taking work; null while paused or stopped. Guarded by this. */
    private WorkerPool pool;
    private volatile boolean started;
    private volatile boolean stopping;

    /**
     * What the controllers of one manager share.
     *
     * @param client the client for reconcilers' writes and the runtime's own (finalizers)
     * @param informers the shared informers, in their registration phase
     * @param timeouts the reconcile timeout scheduler
     * @param clock the wall clock of status snapshots
     * @param recentErrors how many failed reconciles each controller keeps for its status
     * @param readYourWrites whether reads get a controller's own writes while its caches are older
     *     (when off, such stale reads are only counted)
     * @param fence admits each reconcile (sharding: only primaries of the buckets this replica holds)
     * @param fencedClients the client of each reconcile: {@code client}, its writes checked against
     *     the reconcile's permit before they leave
     * @param tracing traces reconciles ({@link Tracing#OFF}: nothing is wrapped or noted)
     */
    public record Services(KubernetesClient client, InformerRegistry informers, ReconcileTimeouts timeouts,
            Clock clock, int recentErrors, boolean readYourWrites, ReconcileFence fence,
            FencedClients fencedClients, Tracing tracing) {
    }

    /**
     * Registers the controller's handlers on the shared informers (which must not be started yet)
     * and prepares its queue; starts no thread.
     *
     * @throws dev.kubeloop.runtime.KubeloopConfigurationException if the finalizer setting does not fit the reconciler
     */
    public ControllerWorkers(ControllerConfig<T> config, ResourceReconciler<T> reconciler, Services services,
            EventRecorder events, RateLimiter<ObjectKey> rateLimiter, ControllerListener listener) {
        this.config = config;
        this.listener = listener;
        this.queue = PriorityWorkQueue.<ObjectKey>builder(config.name()).rateLimiter(rateLimiter).listener(listener)
                .build();
        this.threads = NamedThreadFactory.numbered("kubeloop-" + config.name() + "-");
        FinalizerProtocol<T> finalizers = FinalizerProtocol.of(config, reconciler);
        ReconcileActivity activity = new ReconcileActivity(services.clock(), config.reconcileTimeout(),
                services.recentErrors());
        WatchDeclarations<T> declared = config.declarations();
        this.caches = new ControllerCaches(config.name());
        WriteStats writeStats = new WriteStats();
        WriteTracker tracker = new WriteTracker(new WriteTracker.Listener() {
            @Override
            public void staleRead(boolean avoided) {
                writeStats.staleRead(avoided);
                listener.staleRead(avoided);
            }

            @Override
            public void cacheCaughtUp(Duration lag) {
                writeStats.cacheCaughtUp(lag);
                listener.cacheCaughtUp(lag);
            }
        }, services.readYourWrites());
        this.observer = (object, delete, deliver) -> {
            tracker.observe(object, delete, deliver);
            listener.eventTakenIn(object, delete);
        };
        InformerRegistry informers = services.informers();
        // tracing: every add notes why the key was queued; off, the handlers get the queue itself
        QueueCauses causes = services.tracing().on() ? new QueueCauses() : null;
        WorkQueue<ObjectKey> adds = causes == null ? queue : causes.queue(queue);

        EventPredicate<T> primaryFilter = config.generationAware() ? Predicates.generationAware() : Predicates.all();
        for (EventPredicate<? super T> filter : declared.primaryFilters()) {
            primaryFilter = primaryFilter.and(filter);
        }
        EventPredicate<T> primaryEvents = primaryFilter;
        EventHandler<T> primaryHandler = recording(causes, "primary", new EnqueueRequestForObject<>(adds));
        // sharded (when the registry shards): a replica caches the primaries of the buckets it holds, and the
        // objects they own, which carry their owner's slot label
        this.primaryCache = register(informers, config.primaryType(), CacheRequest.of(config.primaryType())
                .namespaces(config.namespaces()).labelSelector(config.labelSelector()).sharded(true)
                .optional(declared.optionalPrimary()).resync(config.resyncPeriod())
                .handlers(informer -> new InformerEventAdapter<>(observer, primaryEvents, primaryHandler, informer)), declared);
        List<ResourceCache<?>> all = new ArrayList<>(List.of(primaryCache));
        EnqueueRequestForOwner ownerHandler = new EnqueueRequestForOwner(adds, config.primaryType());
        ForeignBlockers blockers = new ForeignBlockers(adds);
        EventHandler<HasMetadata> ownedHandler = recording(causes, "owned", EventHandler.both(ownerHandler, blockers));
        for (Class<? extends HasMetadata> owned : config.owns()) {
            // owner references never cross namespaces: owned objects live where their owners do
            all.add(registerOwned(informers, owned, ownedHandler, declared));
        }
        for (Watch<?> watch : declared.watches()) {
            all.add(registerWatch(informers, watch, declared, adds, causes));
        }
        Class<?> reconcilerClass = config.reconcilerClass() != null ? config.reconcilerClass() : reconciler.getClass();
        FailingKeys failing = new FailingKeys(config.maxAttempts());
        ControllerWrites writes = new ControllerWrites(config, services.client(), caches, tracker, events, writeStats,
                listener, informers.shards().orElse(null), informers.stripsManagedFields(), services.tracing());
        this.handler = new ReconcileHandler<>(config, reconciler, queue, primaryCache, caches,
                Set.copyOf(config.owns()), services.client(), events, services.timeouts(), finalizers, activity,
                listener, writes, tracker, services.fence(), services.fencedClients(), failing, blockers,
                LoggerFactory.getLogger(reconcilerClass), services.tracing(), causes);
        this.controller = new Controller<>(config, queue, adds, primaryCache, all, activity, finalizers.finalizer(),
                this, writeStats, tracker, failing);
    }

    /** {@code handler}, telling {@code causes} which event it delivers; itself when not traced. */
    private static <R extends HasMetadata> EventHandler<R> recording(QueueCauses causes, String source,
            EventHandler<R> handler) {
        return causes == null ? handler : causes.recording(source, handler);
    }

    private <R extends HasMetadata> ResourceCache<R> registerOwned(InformerRegistry informers, Class<R> type,
            EventHandler<HasMetadata> ownerHandler, WatchDeclarations<T> declared) {
        // a selector (when declared) keeps unrelated objects of the kind out of the heap: the API server filters them
        return register(informers, type, CacheRequest.of(type).namespaces(config.namespaces()).ownerIndex(true)
                .labelSelector(config.ownedLabelSelector(type))
                .sharded(true).handlers(informer -> new InformerEventAdapter<R>(observer, Predicates.all(), ownerHandler, informer)), declared);
    }

    private <R extends HasMetadata> ResourceCache<R> registerWatch(InformerRegistry informers, Watch<R> watch,
            WatchDeclarations<T> declared, WorkQueue<ObjectKey> adds, QueueCauses causes) {
        EventHandler<R> mapped = recording(causes, "watched",
                new EnqueueRequestsFromMapper<>(adds, watch.mapper(), caches));
        Set<String> namespaces = switch (watch.scope()) {
            case RECONCILER -> config.namespaces();
            case ALL_NAMESPACES -> Set.of();
            case NAMESPACES -> Set.copyOf(watch.namespaces());
        };
        return register(informers, watch.type(), CacheRequest.of(watch.type()).namespaces(namespaces)
                .labelSelector(watch.labelSelector()).fieldSelector(watch.fieldSelector())
                .metadataOnly(watch.isMetadataOnly()).optional(watch.isOptional())
                .handlers(informer -> new InformerEventAdapter<R>(observer, watch.predicate(), mapped, informer)), declared);
    }

    /** Registers {@code request} with the indexes declared on its type, and adds the cache to {@link #caches}. */
    @SuppressWarnings("unchecked")
    private <R extends HasMetadata> ResourceCache<R> register(InformerRegistry informers, Class<R> type,
            CacheRequest<R> request, WatchDeclarations<T> declared) {
        Map<String, WatchDeclarations.Index<?>> indexes = declared.indexesOf(type);
        // one function object per declared index: the owned and the watched caches of a kind may share
        // an informer, which then keeps one index for both (see CacheRequest.index)
        Map<String, Function<R, List<String>>> functions = new LinkedHashMap<>();
        indexes.forEach((name, index) -> functions.put(name, (Function<R, List<String>>) indexers.computeIfAbsent(
                index, declaredIndex -> ControllerCaches.indexer(((WatchDeclarations.Index<R>) declaredIndex).function()))));
        return caches.register(informers, type, request.declaredBy("reconciler '" + config.name() + "'"), functions);
    }

    /** The view of this controller for everyone but the manager. */
    public Controller<T> controller() {
        return controller;
    }

    /**
     * Starts the workers, unless they are running or the controller is shutting down; the manager
     * calls this once the caches have synced (and, with leader election, once this replica leads).
     */
    public synchronized void startWorkers() {
        if (stopping || pool != null) {
            return;
        }
        WorkerPool starting = new WorkerPool(Executors.newFixedThreadPool(config.workers(), threads));
        pool = starting;
        aliveWorkers.set(config.workers());
        for (int i = 0; i < config.workers(); i++) {
            starting.executor.execute(() -> work(starting));
        }
        started = true;
        log.info("Controller started: controller={} type={} workers={} finalizer={}", config.name(),
                HasMetadata.getFullResourceName(config.primaryType()), config.workers(),
                controller.finalizer().orElse("none"));
    }

    /** Whether a worker pool is taking work. */
    public synchronized boolean workersRunning() {
        return pool != null;
    }

    /**
     * Queues every cached primary at {@link WorkQueue#LOW_PRIORITY}, as the initial list does: a
     * replica that starts working after others did reconciles everything once. Keys already queued
     * keep their place and priority.
     *
     * <p>At a cold start the first list's adds have queued every key already (the caches count as
     * synced only once the handlers have them), so this adds nothing. After a pause it queues in
     * the API server's list order (namespace, then name: etcd's key order), not the cache's hash
     * order (a fabric8 mock server, which finds an object by scanning its store in that order,
     * slowed to half speed on a scrambled 10,000-object list; see docs/performance.md).
     */
    public void enqueueAllPrimaries() {
        primaryCache.list().stream().map(ObjectKey::of).sorted(LIST_ORDER)
                .forEach(key -> controller.adds().add(key, WorkQueue.LOW_PRIORITY));
    }

    /**
     * Queues every cached primary of one bucket at {@link WorkQueue#LOW_PRIORITY}, in list order:
     * a replica that takes a bucket over reconciles all of it once, as a new leader does with
     * everything (its previous holder may have been cut short anywhere).
     */
    public void enqueueBucket(int bucket) {
        primaryCache.listBucket(bucket).stream().map(ObjectKey::of).sorted(LIST_ORDER)
                .forEach(key -> controller.adds().add(key, WorkQueue.LOW_PRIORITY));
    }

    /**
     * Stops taking keys at once and interrupts the reconciles in flight; keys stay queued (an
     * interrupted key is queued again, without backoff) for the next {@link #startWorkers()}.
     * Waits up to {@code grace} for the worker threads to end.
     *
     * @return true if every worker ended within {@code grace}
     */
    public synchronized boolean pauseWorkers(Duration grace) throws InterruptedException {
        WorkerPool paused = pool;
        if (paused == null) {
            return true;
        }
        pool = null;
        started = false;
        paused.paused = true;
        paused.executor.shutdownNow();
        if (paused.executor.awaitTermination(grace.toNanos(), TimeUnit.NANOSECONDS)) {
            log.info("Controller paused: controller={}", config.name());
            return true;
        }
        log.warn("Controller paused, but reconciles ignored the interrupt and are still running after {} ms: "
                + "controller={} processing={}", grace.toMillis(), config.name(), queue.stats().processing());
        return false;
    }

    /** Stops handing out keys: the queue shuts down; reconciles in flight go on. Idempotent. */
    public void beginShutdown() {
        stopping = true;
        queue.shutDown();
    }

    /** Waits up to {@code timeout} for the reconciles in flight to end; returns whether they did. */
    public boolean awaitDrained(Duration timeout) throws InterruptedException {
        return queue.shutDownWithDrain(timeout);
    }

    /** Stops the worker threads, interrupting reconciles still running after {@code grace}. */
    public synchronized void stopWorkers(Duration grace) throws InterruptedException {
        beginShutdown();
        started = false;
        WorkerPool stopped = pool;
        pool = null;
        if (stopped == null) {
            return;
        }
        stopped.executor.shutdown();
        if (!stopped.executor.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            log.warn("Reconciles still running at shutdown were interrupted: controller={} processing={}",
                    config.name(), queue.stats().processing());
            stopped.executor.shutdownNow();
            stopped.executor.awaitTermination(1, TimeUnit.SECONDS);
        }
    }

    boolean started() {
        return started;
    }

    boolean stopping() {
        return stopping;
    }

    int alive() {
        return aliveWorkers.get();
    }

    Throwable failure() {
        return workerFailure;
    }

    private void work(WorkerPool own) {
        try {
            loop(own);
        } catch (Throwable e) {
            // the loop catches everything a key's processing throws; what escapes it (an Error in the
            // queue, the rate limiter or an observer) ends this thread, and the controller is short of a worker
            if (!stopping && !own.paused) {
                workerFailure = e;
                log.error("Worker thread died; the controller runs with fewer workers until restarted: "
                        + "controller={} thread={}", config.name(), Thread.currentThread().getName(), e);
                listener.workerDied(e);
            }
            // not rethrown: it is logged, and the pool would only print it again
        } finally {
            aliveWorkers.decrementAndGet();
        }
    }

    /** controller-runtime's {@code processNextWorkItem}, in a loop: take a key, handle it, mark it done. */
    private void loop(WorkerPool own) {
        while (true) {
            if (own.paused) {
                // set before the pause interrupts us: a reconcile may have swallowed that interrupt
                return;
            }
            WorkQueue.Prioritized<ObjectKey> next;
            try {
                Optional<WorkQueue.Prioritized<ObjectKey>> taken = queue.getWithPriority();
                if (taken.isEmpty()) {
                    return; // queue shut down
                }
                next = taken.get();
            } catch (InterruptedException e) {
                if (stopping || own.paused) {
                    return;
                }
                continue; // interrupt not meant for us (timeouts clear their own); keep working
            }
            ObjectKey key = next.item();
            try {
                if (stopping) {
                    continue; // shutting down: hand out nothing more (done is called below)
                }
                if (own.paused) {
                    // paused between get and here: the key belongs to the next start
                    controller.adds().add(key, next.priority());
                    return; // after done, below
                }
                handler.handle(key, next.priority(), () -> own.paused && !stopping);
            } catch (Throwable e) {
                // never lose a key, never lose a worker
                log.error("Worker failed processing a key: controller={} key={}", config.name(), key, e);
                controller.adds().addRateLimited(key, next.priority());
            } finally {
                queue.done(key);
            }
        }
    }

    /** The threads of one start; {@code paused} is written once, before the executor is shut down. */
    private static final class WorkerPool {
        final ExecutorService executor;
        volatile boolean paused;

        WorkerPool(ExecutorService executor) {
            this.executor = executor;
        }
    }
}
