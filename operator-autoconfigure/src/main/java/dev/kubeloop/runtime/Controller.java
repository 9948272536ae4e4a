package dev.kubeloop.runtime;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.queue.PriorityWorkQueue;
import dev.kubeloop.queue.RateLimiter;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.queue.WorkQueueStats;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconciler at work: its own work queue, fed by event handlers on the shared informers, and
 * its own pool of {@code workers} threads named {@code kubeloop-<name>-<n>}, each looping
 * get key → {@link ReconcileRunner} → map the outcome onto the queue → done.
 *
 * <p>Outcomes: success forgets the key's backoff; {@code requeueAfter} forgets it and re-adds after
 * the delay; {@code requeue}, errors, conflicts and timeouts re-add with the key's exponential
 * backoff, forever; a terminal error forgets the key. A slow or failing key holds one worker and
 * nothing else: the queue never hands one key to two workers, and never holds other keys back.
 * An error that is a 403 Forbidden from the API server (see {@link Forbidden}) is retried like
 * any error but logged once per key, saying what was refused, and its recovery once.
 *
 * <p>Everything a worker does is reported to the {@link ControllerListener} the observers gave
 * for this controller (metrics), and kept for {@link #status()} (health, introspection): see
 * {@link ReconcileActivity}; plus whether a worker thread died.
 *
 * <p>Workers can be started and paused any number of times while the controller runs (leader
 * election pauses them on a standby): a pause stops taking keys at once and interrupts reconciles
 * in flight, but keeps the queue, which goes on collecting keys from the informers, so the next
 * start picks up where the events left off. Shutdown, in contrast, is final: it shuts the queue
 * down.
 *
 * <p>State ownership: the queue (thread-safe), the outcome counters ({@link LongAdder}) and the
 * activity (thread-safe) are shared by workers, informer threads and readers; the forbidden keys
 * are a {@link ConcurrentHashMap} whose entry for a key only the worker holding that key writes;
 * {@code workerFailure} is volatile, written by a dying worker. Worker pools are created by
 * {@link #startWorkers()} and ended by {@link #pauseWorkers} or {@link #stopWorkers}, all
 * synchronized on the controller and called by the {@link ControllerManager}; {@code stopping} is a
 * volatile flag written once by the manager, a pool's {@code paused} flag is volatile and written
 * once. The public accessors are thread-safe and never block for long (the queue snapshot takes the
 * queue's lock briefly).
 *
 * @param <T> the primary resource type
 */
public final class Controller<T extends HasMetadata> {

    private static final Logger log = LoggerFactory.getLogger(Controller.class);
    /** The finalizer Kubeloop manages when the reconciler implements cleanup and names none. */
    static final String DEFAULT_FINALIZER_SUFFIX = ".kubeloop.dev/finalizer";

    /** The order in which the API server lists objects: cluster-scoped first, then by namespace and name. */
    private static final Comparator<ObjectKey> LIST_ORDER = Comparator
            .comparing(ObjectKey::namespace, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(ObjectKey::name);

    private final ControllerConfig<T> config;
    private final PriorityWorkQueue<ObjectKey> queue;
    private final ReconcileRunner<T> runner;
    private final ResourceCache<T> primaryCache;
    private final String finalizer;
    private final Map<ReconcileOutcome, LongAdder> counts = new EnumMap<>(ReconcileOutcome.class);
    private final ControllerListener listener;
    private final ReconcileActivity activity;
    /** The primary cache first, then the owned types' caches. */
    private final List<ResourceCache<?>> caches = new ArrayList<>();
    private final AtomicInteger aliveWorkers = new AtomicInteger();
    /**
     * Keys whose last failure was a 403 Forbidden, with what was refused: so that the refusal is
     * logged once per key (again only if what is refused changes), not once per retry, and the
     * recovery once. An entry goes when its key succeeds, fails terminally or its object is gone.
     */
    private final ConcurrentHashMap<ObjectKey, String> forbiddenKeys = new ConcurrentHashMap<>();
    private volatile Throwable workerFailure;
    /** One factory for every pool, so that the threads of a restarted pool get new numbers. */
    private final NamedThreadFactory threads;
    /** The pool taking work; null while paused or stopped. Guarded by this. */
    private WorkerPool pool;
    private volatile boolean started;
    private volatile boolean stopping;

    Controller(ControllerConfig<T> config, ResourceReconciler<T> reconciler, InformerRegistry informers,
            KubernetesClient client, EventBroadcaster events, ReconcileTimeouts timeouts,
            RateLimiter<ObjectKey> rateLimiter, ControllerListener listener, int recentErrorCapacity, Clock clock) {
        this.config = config;
        this.listener = listener;
        this.activity = new ReconcileActivity(clock, config.reconcileTimeout(), recentErrorCapacity);
        this.queue = PriorityWorkQueue.<ObjectKey>builder(config.name()).rateLimiter(rateLimiter).listener(listener)
                .build();
        this.threads = NamedThreadFactory.numbered("kubeloop-" + config.name() + "-");
        for (ReconcileOutcome outcome : ReconcileOutcome.values()) {
            counts.put(outcome, new LongAdder());
        }
        Class<?> reconcilerClass = config.reconcilerClass() != null ? config.reconcilerClass() : reconciler.getClass();
        this.finalizer = config.finalizer()
                .orElse(overridesCleanup(reconcilerClass) ? config.name() + DEFAULT_FINALIZER_SUFFIX : null);

        EventHandler<T> primaryHandler = new EnqueueRequestForObject<>(queue);
        if (config.generationAware()) {
            primaryHandler = new GenerationChangedPredicate<T>().filter(primaryHandler);
        }
        this.primaryCache = informers.register(config.primaryType(), config.namespaces(), config.labelSelector(),
                false, primaryHandler, config.resyncPeriod());
        caches.add(primaryCache);
        Map<Class<?>, ResourceCache<?>> ownedCaches = new LinkedHashMap<>();
        EnqueueRequestForOwner ownerHandler = new EnqueueRequestForOwner(queue, config.primaryType());
        for (Class<? extends HasMetadata> owned : config.owns()) {
            // owner references never cross namespaces: owned objects live where their owners do
            ResourceCache<?> cache = informers.register(owned, config.namespaces(), "", true, ownerHandler,
                    Duration.ZERO);
            ownedCaches.put(owned, cache);
            caches.add(cache);
        }
        this.runner = new ReconcileRunner<>(config.name(), reconciler, client, primaryCache, ownedCaches,
                events.recorderFor(config.name()), timeouts, config.reconcileTimeout(), finalizer,
                LoggerFactory.getLogger(reconcilerClass));
    }

    /** True if {@code type} overrides {@link ResourceReconciler#cleanup} (the interface's default does nothing). */
    static boolean overridesCleanup(Class<?> type) {
        try {
            return type.getMethod("cleanup", HasMetadata.class, ReconcileContext.class).getDeclaringClass()
                    != ResourceReconciler.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    public String name() {
        return config.name();
    }

    public ControllerConfig<T> config() {
        return config;
    }

    /** The finalizer this controller manages: the configured one, or the default if cleanup is implemented. */
    public Optional<String> finalizer() {
        return Optional.ofNullable(finalizer);
    }

    /** How many processed keys ended with {@code outcome} since start. */
    public long count(ReconcileOutcome outcome) {
        return counts.get(outcome).sum();
    }

    /** A snapshot of the work queue's gauges. */
    public WorkQueueStats queueStats() {
        return queue.stats();
    }

    /** Workers reconciling a key right now (controller-runtime's active workers). Cheap. */
    public int activeWorkers() {
        return activity.inFlightCount();
    }

    /** A snapshot of everything this controller is doing; see {@link ControllerStatus}. */
    public ControllerStatus status() {
        List<ControllerStatus.InFlight> running = activity.inFlight();
        Map<ReconcileOutcome, Long> outcomes = new EnumMap<>(ReconcileOutcome.class);
        counts.forEach((outcome, count) -> outcomes.put(outcome, count.sum()));
        List<InformerStatus> informers = new ArrayList<>();
        for (ResourceCache<?> cache : caches) {
            informers.addAll(cache.statuses());
        }
        Throwable failure = workerFailure;
        return new ControllerStatus(name(), started, config.workers(), running.size(), aliveWorkers.get(),
                queue.stats(), running, activity.recentErrors(), activity.lastSuccess(), outcomes, informers,
                failure == null ? null : failure.toString());
    }

    /** Where {@code key} stands in this controller's queue: absent, waiting (delayed), queued, or being reconciled. */
    public ItemState state(ObjectKey key) {
        return queue.state(key);
    }

    /** The resourceVersion of the primary object this controller's cache holds for {@code key}, if any. */
    public Optional<String> cachedResourceVersion(ObjectKey key) {
        return primaryCache.get(key).map(object -> object.getMetadata().getResourceVersion());
    }

    /**
     * Queues {@code key} for a reconcile now, at normal priority, as if its object had changed.
     *
     * @return false if the controller is shutting down and the key was not queued
     */
    public boolean enqueue(ObjectKey key) {
        if (stopping || queue.isShuttingDown()) {
            return false;
        }
        queue.add(key, WorkQueue.NORMAL_PRIORITY);
        return true;
    }

    /** The primary objects' cache. */
    ResourceCache<T> primaryCache() {
        return primaryCache;
    }

    /**
     * Starts the workers, unless they are running or the controller is shutting down; the manager
     * calls this once the caches have synced (and, with leader election, once this replica leads).
     */
    synchronized void startWorkers() {
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
        log.info("Controller started: controller={} type={} workers={} finalizer={}", name(),
                HasMetadata.getFullResourceName(config.primaryType()), config.workers(),
                finalizer == null ? "none" : finalizer);
    }

    /** Whether a worker pool is taking work. */
    synchronized boolean workersRunning() {
        return pool != null;
    }

    /**
     * Queues every cached primary at {@link WorkQueue#LOW_PRIORITY}, as the initial list does: a
     * replica that starts working after others did reconciles everything once. Keys already queued
     * keep their place and priority.
     *
     * <p>In the API server's list order (namespace, then name: etcd's key order), not the cache's
     * hash order: at a cold start the workers begin while the informer is still handing over the
     * first list's adds, and the keys queued here must not scramble the order the list gave them
     * (a fabric8 mock server, which finds an object by scanning its store in that order, slowed to
     * half speed on a scrambled 10,000-object list; see docs/performance.md).
     */
    void enqueueAllPrimaries() {
        primaryCache.list().stream().map(ObjectKey::of).sorted(LIST_ORDER)
                .forEach(key -> queue.add(key, WorkQueue.LOW_PRIORITY));
    }

    /**
     * Stops taking keys at once and interrupts the reconciles in flight; keys stay queued (an
     * interrupted key is queued again, without backoff) for the next {@link #startWorkers()}.
     * Waits up to {@code grace} for the worker threads to end.
     *
     * @return true if every worker ended within {@code grace}
     */
    synchronized boolean pauseWorkers(Duration grace) throws InterruptedException {
        WorkerPool paused = pool;
        if (paused == null) {
            return true;
        }
        pool = null;
        started = false;
        paused.paused = true;
        paused.executor.shutdownNow();
        if (paused.executor.awaitTermination(grace.toNanos(), TimeUnit.NANOSECONDS)) {
            log.info("Controller paused: controller={}", name());
            return true;
        }
        log.warn("Controller paused, but reconciles ignored the interrupt and are still running after {} ms: "
                + "controller={} processing={}", grace.toMillis(), name(), queue.stats().processing());
        return false;
    }

    /** Stops handing out keys; reconciles in flight carry on. */
    void beginShutdown() {
        stopping = true;
        queue.shutDown();
    }

    /** Waits up to {@code timeout} for reconciles in flight; true if all finished. */
    boolean awaitDrained(Duration timeout) throws InterruptedException {
        return queue.shutDownWithDrain(timeout);
    }

    /** Stops the worker threads, interrupting reconciles still running after {@code grace}. */
    synchronized void stopWorkers(Duration grace) throws InterruptedException {
        beginShutdown();
        started = false;
        WorkerPool stopped = pool;
        pool = null;
        if (stopped == null) {
            return;
        }
        stopped.executor.shutdown();
        if (!stopped.executor.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            log.warn("Reconciles still running at shutdown were interrupted: controller={} processing={}", name(),
                    queue.stats().processing());
            stopped.executor.shutdownNow();
            stopped.executor.awaitTermination(1, TimeUnit.SECONDS);
        }
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
                        + "controller={} thread={}", name(), Thread.currentThread().getName(), e);
                listener.workerDied(e);
            }
            // not rethrown: it is logged, and the pool would only print it again
        } finally {
            aliveWorkers.decrementAndGet();
        }
    }

    private void loop(WorkerPool own) {
        while (true) {
            if (own.paused) {
                // set before the pause interrupts us: a reconcile may have swallowed that interrupt
                return;
            }
            ObjectKey key;
            try {
                Optional<ObjectKey> next = queue.get();
                if (next.isEmpty()) {
                    return; // queue shut down
                }
                key = next.get();
            } catch (InterruptedException e) {
                if (stopping || own.paused) {
                    return;
                }
                continue; // interrupt not meant for us (timeouts clear their own); keep working
            }
            try {
                if (stopping) {
                    continue; // shutting down: hand out nothing more (done is called below)
                }
                if (own.paused) {
                    // paused between get and here: the key belongs to the next start
                    queue.add(key);
                    return; // after done, below
                }
                process(key, own);
            } catch (Throwable e) {
                // never lose a key, never lose a worker
                log.error("Worker failed processing a key: controller={} key={}", name(), key, e);
                queue.addRateLimited(key);
            } finally {
                queue.done(key);
            }
        }
    }

    private void process(ObjectKey key, WorkerPool own) {
        int retries = queue.numRequeues(key);
        long startNanos = activity.started(key);
        Outcome outcome;
        try {
            listener.reconcileStarted(key);
            outcome = runner.run(key, retries);
        } catch (RuntimeException e) {
            outcome = Outcome.failed(e); // the runner catches what the reconciler throws: this is the runtime's own
        } finally {
            activity.released(key);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - startNanos);
        counts.get(outcome.kind()).increment();
        ReconcileReport report = new ReconcileReport(name(), key, outcome.kind(), took, retries, outcome.error());
        activity.finished(report);
        listener.reconcileFinished(report);
        Throwable error = outcome.error();
        if (own.paused && !stopping && interruptible(outcome.kind())) {
            // most likely cut short by the pause: retry at once when work resumes, not after a backoff
            queue.add(key);
            log.info("Reconcile interrupted because the workers were paused; the key stays queued: controller={} "
                    + "key={}", name(), key);
            return;
        }
        switch (outcome.kind()) {
            case GONE -> {
                queue.forget(key);
                forbiddenKeys.remove(key);
                log.debug("Object gone, nothing to reconcile: controller={} key={}", name(), key);
            }
            case SUCCESS -> {
                queue.forget(key);
                recovered(key, retries);
            }
            case REQUEUE_AFTER -> {
                queue.forget(key);
                queue.addAfter(key, outcome.delay());
                recovered(key, retries);
            }
            case REQUEUE -> {
                queue.addRateLimited(key);
                recovered(key, retries);
            }
            case CONFLICT -> {
                queue.addRateLimited(key);
                log.debug("Conflict, requeued: controller={} key={} retry={}: {}", name(), key, retries,
                        error.getMessage());
            }
            case TIMEOUT -> {
                queue.addRateLimited(key);
                log.warn("Reconcile timed out after {} ms and was interrupted, retrying: controller={} key={} retry={}",
                        config.reconcileTimeout().toMillis(), name(), key, retries);
            }
            case TERMINAL_ERROR -> {
                queue.forget(key);
                forbiddenKeys.remove(key);
                log.error("Reconcile failed terminally, not retrying: controller={} key={}: {}", name(), key,
                        error.getMessage());
                log.debug("Terminal error stack trace: controller={} key={}", name(), key, error);
            }
            case ERROR -> {
                queue.addRateLimited(key);
                Optional<Forbidden> forbidden = Forbidden.in(error);
                if (forbidden.isPresent()) {
                    forbidden(key, retries, forbidden.get(), error);
                } else if (retries == 0) {
                    log.error("Reconcile failed, retrying with backoff: controller={} key={} retry={}: {}", name(),
                            key, retries, error.toString(), error);
                } else {
                    log.error("Reconcile failed, retrying with backoff: controller={} key={} retry={}: {}", name(),
                            key, retries, error.toString());
                    log.debug("Stack trace: controller={} key={}", name(), key, error);
                }
            }
        }
    }

    /** Logs a 403 once per key (and again only if what is refused changes); every retry at DEBUG. */
    private void forbidden(ObjectKey key, int retries, Forbidden forbidden, Throwable error) {
        String refused = forbidden.describe();
        if (!refused.equals(forbiddenKeys.put(key, refused))) {
            log.error("Reconcile forbidden, retrying with backoff (logged once per object until it recovers): "
                    + "controller={} key={} retry={}: {}", name(), key, retries, refused);
        } else {
            log.debug("Reconcile still forbidden, retrying with backoff: controller={} key={} retry={}", name(), key,
                    retries);
        }
        log.debug("Stack trace: controller={} key={}", name(), key, error);
    }

    /** Logs the end of a key's 403s, once. */
    private void recovered(ObjectKey key, int retries) {
        if (forbiddenKeys.remove(key) != null) {
            log.info("Reconcile no longer forbidden, recovered: controller={} key={} after {} retries", name(), key,
                    retries);
        }
    }

    /** Outcomes an interrupt can cause: the reconcile did not decide anything. */
    private static boolean interruptible(ReconcileOutcome kind) {
        return kind == ReconcileOutcome.ERROR || kind == ReconcileOutcome.TIMEOUT || kind == ReconcileOutcome.CONFLICT
                || kind == ReconcileOutcome.REQUEUE;
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
