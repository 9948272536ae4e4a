package dev.kubeloop.runtime.manager;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileTrigger;
import dev.kubeloop.api.ReconcileTriggers;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.api.watch.WatchConfigurer;
import dev.kubeloop.queue.RateLimiter;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.runtime.Tracing;
import dev.kubeloop.runtime.cache.InformerRegistry;
import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.cache.ShardLayout;
import dev.kubeloop.runtime.cache.ServedResourceCheck;
import dev.kubeloop.runtime.client.ClientIdentity;
import dev.kubeloop.runtime.client.FencedClients;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ControllerWorkers;
import dev.kubeloop.runtime.controller.ReconcileFence;
import dev.kubeloop.runtime.controller.ReconcileTimeouts;
import dev.kubeloop.runtime.event.EventBroadcaster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the lifecycle of a set of controllers and what they share: the informers, the reconcile
 * timeout scheduler and the event writer. Plain Java; the Spring auto-configuration drives it from
 * a {@code SmartLifecycle}.
 *
 * <p><b>Start</b>: logs which API server it connects to and as whom ({@link ClientIdentity}), checks
 * that every custom resource type is served (a missing CRD fails here, with
 * its name), starts the informers, waits until all caches have synced (default 2 min; a timeout
 * fails naming the resource, its scope and the API server URL), and only then opens the
 * {@link WorkGate}, so no reconcile ever runs on a partial cache. The default gate starts the
 * workers at once; leader election starts them only while this replica holds the Lease (a
 * standby keeps its caches and queues warm). Any failure stops what was started and is thrown as a
 * {@link KubeloopConfigurationException}. The first half, up to the informers' first lists, can
 * begin earlier on a thread of its own ({@link #startCaches()}), so that it overlaps whatever the
 * application still does before it calls {@link #start()}; start then only waits for it.
 *
 * <p><b>Stop</b>: tells the gate, stops handing out keys, waits up to the shutdown timeout
 * (default 30 s) for reconciles in flight, interrupts those still running, then closes the gate
 * (which releases the Lease: a standby may take over now that nothing here acts), then stops the
 * informers, the event writer and the timeout scheduler.
 *
 * <p><b>Observing</b>: {@link ControllerObserver}s given to the builder hear about every
 * controller, reconcile and worker (metrics); {@link #state()}, {@link #informers()} and
 * {@link Controller#status()} are snapshots for health checks and introspection.
 *
 * <p>Thread-safety: {@link #register}, {@link #startCaches()}, {@link #start()} and {@link #stop()}
 * are synchronized on the manager (a manager is registered, started once and stopped once; stop is
 * idempotent); the early half of the start runs on its own thread and is fenced by stop (see
 * {@link CacheStart}). The
 * gate starts and pauses workers from its own threads under a separate lock, so that it never
 * waits for a stop in progress, and a stop in progress never starts them again. The accessors read
 * volatile snapshots and never wait for a start or stop in progress, so a reconcile may call them.
 */
public final class ControllerManager implements ReconcileTriggers, AutoCloseable {

    /** How long the event writer may take to flush queued events at stop. */
    private static final Duration EVENT_FLUSH_TIMEOUT = Duration.ofSeconds(2);

    /** The source of Events the informers record (about objects they cannot read), which belong to no controller. */
    public static final String INFORMER_EVENT_SOURCE = "kubeloop";

    private static final Logger log = LoggerFactory.getLogger(ControllerManager.class);

    /** Where a manager is in its life. */
    public enum State {
        /** Built; controllers may be registered. */
        NEW,
        /** {@link #start()} is checking resources and waiting for the caches to sync. */
        STARTING,
        /** Caches synced, workers running. */
        RUNNING,
        /** Stopped after running (or stopped before it was started). */
        STOPPED,
        /** {@link #start()} failed; see {@link #failure()}. */
        FAILED
    }

    private final KubernetesClient client;
    private final Duration cacheSyncTimeout;
    private final Duration shutdownTimeout;
    private final Supplier<RateLimiter<ObjectKey>> rateLimiters;
    private final Observers observers;
    private final int recentErrors;
    private final boolean readYourWrites;
    private final Clock clock = Clock.systemUTC();
    private final InformerRegistry informers;
    private final EventBroadcaster events;
    private final ReconcileTimeouts timeouts = new ReconcileTimeouts();
    private final WorkGate gate;
    /** What every reconcile passes: the gate's (sharding admits only the buckets this replica holds). */
    private final ReconcileFence fence;
    /** Each reconcile's client; its writes fenced when the gate admits reconciles by Lease or bucket. */
    private final FencedClients fencedClients;
    private final Tracing tracing;
    private final GatedWorkers workers = new GatedWorkers();
    private final CacheStart cacheStart;
    // written under this lock; read without it (register only happens before start)
    private final Map<String, ControllerWorkers<?>> controllers = new LinkedHashMap<>();
    /** An immutable copy of {@code controllers}, so that readers never wait for a start or stop in progress. */
    private volatile Map<String, Controller<?>> published = Map.of();
    private volatile State state = State.NEW;
    private volatile Throwable failure;

    private ControllerManager(Builder builder) {
        this.client = builder.client;
        this.cacheSyncTimeout = builder.cacheSyncTimeout;
        this.shutdownTimeout = builder.shutdownTimeout;
        this.rateLimiters = builder.rateLimiters;
        this.observers = new Observers(builder.observers);
        this.recentErrors = builder.recentErrors;
        this.readYourWrites = builder.readYourWrites;
        this.gate = builder.gate;
        this.tracing = builder.tracing;
        this.events = new EventBroadcaster(client);
        this.informers = new InformerRegistry(client, builder.stripManagedFields, builder.listPageSize,
                builder.optionalTypePollInterval, observers::informerFailed, events.recorderFor(INFORMER_EVENT_SOURCE),
                gate.shardLayout().orElse(null));
        this.fence = gate.fence();
        this.fencedClients = new FencedClients(client, fence != ReconcileFence.OPEN);
        this.cacheStart = new CacheStart(() -> {
            // the first request to the API server, early or not: say which server and who
            log.info("Kubeloop connects to the API server at {}", describeClient());
            new ServedResourceCheck(client, cacheSyncTimeout).check(typesInUse());
        }, () -> {
            events.start();
            informers.start();
        });
    }

    public static Builder builder(KubernetesClient client) {
        return new Builder(client);
    }

    /**
     * Adds a controller; only before {@link #start()}.
     *
     * @throws KubeloopConfigurationException if a controller with the same name exists
     */
    public synchronized <T extends HasMetadata> Controller<T> register(ControllerConfig<T> config,
            ResourceReconciler<T> reconciler) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(reconciler, "reconciler");
        if (state != State.NEW || cacheStart.begun()) {
            throw new IllegalStateException("controllers must be registered before the manager starts");
        }
        ControllerConfig<T> effective = config;
        if (reconciler instanceof WatchConfigurer<?> configurer && !config.declaredByReconciler()) {
            @SuppressWarnings("unchecked")
            WatchConfigurer<T> typed = (WatchConfigurer<T>) configurer;
            effective = config.toBuilder().configuredBy(typed).build();
        }
        if (controllers.containsKey(config.name())) {
            throw new KubeloopConfigurationException("Two reconcilers are named '" + config.name() + "'.",
                    "Give each reconciler a unique name with @Reconciler(name = ...).", config.name(), "name", null);
        }
        ControllerWorkers<T> controller = new ControllerWorkers<>(effective, reconciler,
                new ControllerWorkers.Services(client, informers, timeouts, clock, recentErrors, readYourWrites, fence,
                        fencedClients, tracing),
                events.recorderFor(config.name()), rateLimiters.get(), observers.controllerRegistered(config));
        controllers.put(config.name(), controller);
        Map<String, Controller<?>> views = new LinkedHashMap<>();
        controllers.forEach((name, workers) -> views.put(name, workers.controller()));
        published = Collections.unmodifiableMap(views);
        return controller.controller();
    }

    /**
     * Begins the first half of {@link #start()} on a thread of its own and returns at once: checks
     * that every custom resource type is served, then starts the informers (their first lists). Call
     * it once every controller is registered, as early as possible; what it finds wrong,
     * {@link #start()} throws. Optional, and does nothing if the caches are starting already;
     * nothing can be registered after it.
     */
    public synchronized void startCaches() {
        if (state != State.NEW) {
            throw new IllegalStateException("the caches start before the manager does");
        }
        cacheStart.beginInBackground();
    }

    /**
     * Starts informers (unless {@link #startCaches()} did), waits for their caches, then opens the
     * work gate (by default: starts the workers).
     *
     * @throws KubeloopConfigurationException if a type is not served or a cache does not sync
     */
    public synchronized void start() {
        if (state != State.NEW) {
            throw new IllegalStateException("the manager can only be started once");
        }
        long started = System.nanoTime();
        state = State.STARTING;
        try {
            observers.managerStarting(this);
            cacheStart.runOrAwait();
            informers.awaitSynced(cacheSyncTimeout);
            workers.accept();
            state = State.RUNNING;
            gate.open(workers);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            IllegalStateException failed =
                    new IllegalStateException("interrupted while waiting for the informer caches to sync", e);
            abortStart(failed);
            throw failed;
        } catch (RuntimeException | Error e) {
            abortStart(e);
            throw e;
        }
        observers.managerStarted(this);
        log.info("Kubeloop started: controllers={} informers={} in {} ms", controllers.keySet(), informers.size(),
                (System.nanoTime() - started) / 1_000_000);
    }

    /** Which API server, as whom: logged before the first request, so that a failed start says where it failed. */
    private String describeClient() {
        try {
            return ClientIdentity.describe(client.getConfiguration());
        } catch (RuntimeException e) {
            return client.getMasterUrl() + " (its identity does not read: " + e.getMessage() + ")";
        }
    }

    private void abortStart(Throwable cause) {
        failure = cause;
        state = State.FAILED;
        try {
            shutDown(Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.debug("Cleanup after failed start: {}", e.toString());
        }
        observers.managerFailed(this, cause);
    }

    /** Stops workers (draining up to the shutdown timeout), informers and background threads. Idempotent. */
    public synchronized void stop() {
        if (state == State.STOPPED || state == State.FAILED) {
            return;
        }
        boolean wasRunning = state == State.RUNNING;
        state = State.STOPPED;
        try {
            shutDown(wasRunning ? shutdownTimeout : Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warn("Interrupted while stopping; reconciles may still be running");
        }
        if (wasRunning) {
            log.info("Kubeloop stopped: controllers={}", controllers.keySet());
        }
    }

    private void shutDown(Duration drainTimeout) throws InterruptedException {
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        // an early start still under way completes first, or starts nothing at all
        cacheStart.fence();
        quietly("shutdownStarted", gate::shutdownStarted);
        workers.beginShutdown();
        for (ControllerWorkers<?> controller : controllers.values()) {
            Duration remaining = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
            if (!controller.awaitDrained(remaining)) {
                log.warn("Shutdown timeout of {} ms reached with reconciles in flight: controller={} processing={}",
                        drainTimeout.toMillis(), controller.controller().name(),
                        controller.controller().queueStats().processing());
            }
        }
        workers.stopForShutdown();
        // only now may a standby take over: nothing here acts any more
        quietly("close", gate::close);
        informers.stop();
        events.close(EVENT_FLUSH_TIMEOUT);
        timeouts.close();
    }

    private void quietly(String step, Runnable gateCall) {
        try {
            gateCall.run();
        } catch (RuntimeException e) {
            log.warn("Work gate failed to {} during stop: {}", step, e.toString(), e);
        }
    }

    @Override
    public void close() {
        stop();
    }

    /** Whether this replica acts (leader election), for health, metrics and the actuator endpoint. */
    public LeadershipState leadership() {
        return gate.state();
    }

    /** The ring this replica shards the work with, if it does. */
    public Optional<ShardingState> sharding() {
        return gate.sharding();
    }

    /** Whether the workers are taking work: running, and (with leader election) leading. */
    public boolean workersRunning() {
        return workers.running();
    }

    public boolean isRunning() {
        return state == State.RUNNING;
    }

    /** Where the manager is in its life. */
    public State state() {
        return state;
    }

    /** Why {@link #start()} failed, once the state is {@link State#FAILED}. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** Snapshots of every shared informer, in registration order. */
    public List<InformerStatus> informers() {
        return informers.statuses();
    }

    /** True once every informer's cache has synced (and the manager was started). */
    public boolean hasSynced() {
        return informers.hasSynced();
    }

    /** The registered controllers, in registration order. */
    public List<Controller<?>> controllers() {
        return List.copyOf(published.values());
    }

    public Optional<Controller<?>> controller(String name) {
        return Optional.ofNullable(published.get(name));
    }

    /**
     * {@inheritDoc}
     *
     * <p>The trigger is the controller itself; keys queued before the manager starts wait for it.
     */
    @Override
    public ReconcileTrigger of(String reconciler) {
        Controller<?> controller = published.get(reconciler);
        if (controller == null) {
            throw new IllegalArgumentException("No reconciler is named '" + reconciler + "' (reconcilers: "
                    + published.keySet() + ")");
        }
        return controller;
    }

    @Override
    public ReconcileTrigger of(Class<? extends HasMetadata> primaryType) {
        List<Controller<?>> matching = published.values().stream()
                .filter(controller -> controller.config().primaryType().equals(primaryType)).toList();
        if (matching.size() != 1) {
            throw new IllegalArgumentException((matching.isEmpty() ? "No reconciler reconciles " : "Several "
                    + "reconcilers reconcile ") + primaryType.getSimpleName() + " (reconcilers: "
                    + published.keySet() + ")" + (matching.isEmpty() ? "" : ": name the one to trigger"));
        }
        return matching.get(0);
    }

    /** The API server this manager talks to, for messages. */
    public String apiServerUrl() {
        return String.valueOf(client.getMasterUrl());
    }

    private Map<Class<? extends HasMetadata>, Set<String>> typesInUse() {
        Map<Class<? extends HasMetadata>, Set<String>> users = new LinkedHashMap<>();
        for (Controller<?> controller : published.values()) {
            ControllerConfig<?> config = controller.config();
            if (!config.declarations().optionalPrimary()) {
                users.computeIfAbsent(config.primaryType(), t -> new LinkedHashSet<>()).add(controller.name());
            }
            for (Class<? extends HasMetadata> owned : config.owns()) {
                users.computeIfAbsent(owned, t -> new LinkedHashSet<>()).add(controller.name());
            }
            for (Watch<?> watch : config.declarations().watches()) {
                if (!watch.isOptional()) {
                    users.computeIfAbsent(watch.type(), t -> new LinkedHashSet<>()).add(controller.name());
                }
            }
        }
        return users;
    }

    /**
     * The {@link WorkGate.Workers} the gate drives. {@code accepting} is true from the end of a
     * successful cache sync until stop begins; guarded by {@code this} (not the manager's lock, which
     * a stop holds while it drains).
     */
    private final class GatedWorkers implements WorkGate.Workers {
        private boolean accepting;
        private volatile boolean running;

        synchronized void accept() {
            accepting = true;
        }

        @Override
        public synchronized void start() {
            if (!accepting || running) {
                return;
            }
            running = true;
            for (ControllerWorkers<?> controller : controllers.values()) {
                controller.enqueueAllPrimaries();
                controller.startWorkers();
            }
        }

        @Override
        public synchronized boolean stop(Duration grace) {
            if (!running) {
                return true;
            }
            running = false;
            long deadline = System.nanoTime() + grace.toNanos();
            boolean ended = true;
            try {
                for (ControllerWorkers<?> controller : controllers.values()) {
                    ended &= controller.pauseWorkers(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            return ended;
        }

        @Override
        public boolean running() {
            return running;
        }

        @Override
        public Optional<ShardControl> shards() {
            return informers.shards().map(layout -> new ManagerShards(layout));
        }

        synchronized void beginShutdown() {
            accepting = false;
            controllers.values().forEach(ControllerWorkers::beginShutdown);
        }

        synchronized void stopForShutdown() throws InterruptedException {
            running = false;
            for (ControllerWorkers<?> controller : controllers.values()) {
                controller.stopWorkers(Duration.ofMillis(100));
            }
        }
    }

    /** The manager's sharded caches and queues, as a sharding gate drives them; stateless. */
    private final class ManagerShards implements ShardControl {
        private final ShardLayout layout;

        ManagerShards(ShardLayout layout) {
            this.layout = layout;
        }

        @Override
        public ShardLayout layout() {
            return layout;
        }

        @Override
        public CompletableFuture<Void> startBucket(int bucket) {
            return informers.startBucket(bucket);
        }

        @Override
        public void stopBucket(int bucket) {
            informers.stopBucket(bucket);
        }

        @Override
        public void enqueueBucket(int bucket) {
            controllers.values().forEach(controller -> controller.enqueueBucket(bucket));
        }

        @Override
        public List<PrimaryScope> primaries() {
            return published.values().stream().map(controller -> new PrimaryScope(controller.name(),
                    controller.config().primaryType(), controller.config().namespaces(),
                    controller.config().labelSelector())).toList();
        }

        @Override
        public Map<String, Integer> cachedPrimaries() {
            Map<String, Integer> cached = new LinkedHashMap<>();
            published.values().forEach(controller -> cached.put(controller.name(), controller.cachedPrimaries()));
            return cached;
        }
    }

    /** Configures a {@link ControllerManager}. Not thread-safe; build once. */
    public static final class Builder {
        private final KubernetesClient client;
        private Duration cacheSyncTimeout = Settings.CACHE_SYNC_TIMEOUT.defaultValue();
        private Duration shutdownTimeout = Settings.SHUTDOWN_TIMEOUT.defaultValue();
        private boolean stripManagedFields = Settings.STRIP_MANAGED_FIELDS.defaultValue();
        private long listPageSize = Settings.INFORMER_LIST_PAGE_SIZE.defaultValue();
        private Duration optionalTypePollInterval = Settings.OPTIONAL_TYPE_POLL_INTERVAL.defaultValue();
        private Supplier<RateLimiter<ObjectKey>> rateLimiters = RateLimiter::defaultControllerRateLimiter;
        private final List<ControllerObserver> observers = new ArrayList<>();
        private int recentErrors = Settings.INTROSPECTION_LAST_ERRORS.defaultValue();
        private boolean readYourWrites = Settings.READ_YOUR_WRITES.defaultValue();
        private WorkGate gate = WorkGate.alwaysOpen();
        private Tracing tracing = Tracing.OFF;

        private Builder(KubernetesClient client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /**
         * How long {@link #start()} waits for the caches; default 2 min.
         *
         * @throws KubeloopConfigurationException unless it is {@link Settings#CACHE_SYNC_TIMEOUT acceptable}
         */
        public Builder cacheSyncTimeout(Duration timeout) {
            this.cacheSyncTimeout = Settings.CACHE_SYNC_TIMEOUT.check(timeout);
            return this;
        }

        /** How long {@link #stop()} waits for reconciles in flight; default 30 s. */
        public Builder shutdownTimeout(Duration timeout) {
            this.shutdownTimeout = Settings.SHUTDOWN_TIMEOUT.check(timeout);
            return this;
        }

        /** Whether cached objects lose {@code metadata.managedFields}; default true. */
        public Builder stripManagedFields(boolean strip) {
            this.stripManagedFields = strip;
            return this;
        }

        /**
         * How many objects each informer asks for per page when it lists; default 0: the whole list
         * in one response, which the API server may serve from its watch cache. With a page size, a
         * list of many objects is never in memory all at once (its JSON, and its objects before
         * managedFields are stripped), at the price of the API server reading each page from etcd.
         */
        public Builder listPageSize(long pageSize) {
            this.listPageSize = Settings.INFORMER_LIST_PAGE_SIZE.check(pageSize);
            return this;
        }

        /** How often optional types (a CRD that may be absent) are checked for; default 10 s. */
        public Builder optionalTypePollInterval(Duration interval) {
            this.optionalTypePollInterval = Settings.OPTIONAL_TYPE_POLL_INTERVAL.check(interval);
            return this;
        }

        /**
         * Makes each controller's rate limiter (one per controller: backoff and bucket are per
         * controller, as in controller-runtime); default: client-go's controller rate limiter.
         */
        public Builder rateLimiter(Supplier<RateLimiter<ObjectKey>> rateLimiters) {
            this.rateLimiters = Objects.requireNonNull(rateLimiters, "rateLimiters");
            return this;
        }

        /**
         * Traces every reconcile and its API requests (docs/tracing.md); {@link Tracing#OFF}, the
         * default, traces nothing and costs nothing per key.
         */
        public Builder tracing(Tracing tracing) {
            this.tracing = Objects.requireNonNull(tracing, "tracing");
            return this;
        }

        /** Adds an observer of controllers, reconciles and workers (metrics, health); see {@link ControllerObserver}. */
        public Builder observer(ControllerObserver observer) {
            observers.add(Objects.requireNonNull(observer, "observer"));
            return this;
        }

        /** How many failed reconciles each controller keeps for {@link Controller#status()}; default 20, 0 keeps none. */
        public Builder recentErrors(int count) {
            this.recentErrors = Settings.INTROSPECTION_LAST_ERRORS.check(count);
            return this;
        }

        /**
         * Whether a controller's reads (the primary a reconcile starts with, the cached objects it
         * reads) return its own writes while the informers have not delivered them yet; default
         * true. Off, such stale reads still happen and are counted
         * ({@code kubeloop_read_your_writes_stale_reads_total{avoided="false"}}).
         */
        public Builder readYourWrites(boolean on) {
            this.readYourWrites = on;
            return this;
        }

        /**
         * Decides when the workers take work once the caches have synced; default
         * {@link WorkGate#alwaysOpen()}. Leader election ({@code dev.kubeloop.leader.LeaderElection}) is
         * a gate.
         */
        public Builder workGate(WorkGate gate) {
            this.gate = Objects.requireNonNull(gate, "gate");
            return this;
        }

        public ControllerManager build() {
            return new ControllerManager(this);
        }
    }
}
