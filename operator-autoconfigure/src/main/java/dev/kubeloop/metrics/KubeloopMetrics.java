package dev.kubeloop.metrics;

import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ControllerListener;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.ControllerObserver;
import dev.kubeloop.runtime.manager.LeadershipState;
import dev.kubeloop.runtime.manager.ShardingState;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Binds the runtime to Micrometer with controller-runtime's metric names, labels and buckets, so
 * that the dashboards and alerts written for Go operators work unchanged on a Prometheus scrape
 * ({@code /actuator/prometheus}). Pass it to {@link ControllerManager.Builder#observer}; the
 * Spring auto-configuration does.
 *
 * <p>What it registers, per controller (tag {@code controller}; work queue metrics also
 * {@code name}, which is the controller's name too, as in controller-runtime):
 * <ul>
 *   <li>when the controller is registered, every counter at 0 (for every {@code result}), so that
 *       {@code rate()} works from the first scrape, and the histograms (see {@link ControllerMetrics});
 *   <li>when the manager starts, the gauges, which read the controller's own state when sampled:
 *       active workers, max concurrent reconciles, work queue depth per priority, unfinished work
 *       and longest running processor;
 *   <li>its writes through reconcile contexts (by {@code operation}), those skipped as no-ops, the
 *       stale reads read-your-writes avoided, and how long the cache lagged behind its writes;
 *   <li>per shared informer (tags {@code group}, {@code version}, {@code kind},
 *       {@code watch_namespace}, {@code label_selector}, {@code field_selector}, {@code metadata_only}):
 *       the number of cached objects, the number of watch restarts (re-lists), and whether and how
 *       often its list/watch failed.
 * </ul>
 * No tag ever holds an object's name, namespace or key: series are bounded by the number of
 * controllers and informers, never by the number of objects. {@code docs/metrics.md} lists every
 * metric with its meaning and PromQL examples.
 *
 * <p>Thread-safety: Micrometer's registry and meters are thread-safe; this class keeps no state of
 * its own besides the registry.
 */
public final class KubeloopMetrics implements ControllerObserver {

    /** {@code controller_runtime_reconcile_total{controller,result}}. */
    public static final String RECONCILE_TOTAL = "controller_runtime_reconcile_total";
    /** {@code controller_runtime_reconcile_errors_total{controller}}. */
    public static final String RECONCILE_ERRORS = "controller_runtime_reconcile_errors_total";
    /** {@code controller_runtime_terminal_reconcile_errors_total{controller}}. */
    public static final String TERMINAL_RECONCILE_ERRORS = "controller_runtime_terminal_reconcile_errors_total";
    /** {@code controller_runtime_reconcile_panics_total{controller}}. */
    public static final String RECONCILE_PANICS = "controller_runtime_reconcile_panics_total";
    /** {@code controller_runtime_reconcile_timeouts_total{controller}}. */
    public static final String RECONCILE_TIMEOUTS = "controller_runtime_reconcile_timeouts_total";
    /** {@code controller_runtime_reconcile_time_seconds{controller}}, a histogram: Micrometer adds the unit. */
    public static final String RECONCILE_TIME = "controller_runtime_reconcile_time";
    /** {@code kubeloop_sharding_in_ring{ring}}: 1 while this replica is a member of its ring. */
    public static final String SHARDING_IN_RING = "kubeloop_sharding_in_ring";
    /** {@code kubeloop_sharding_members{ring}}: live members of the ring. */
    public static final String SHARDING_MEMBERS = "kubeloop_sharding_members";
    /** {@code kubeloop_sharding_buckets{ring,state}}: buckets held now ({@code held}) and assigned ({@code target}). */
    public static final String SHARDING_BUCKETS = "kubeloop_sharding_buckets";
    /** {@code kubeloop_sharding_objects{ring,controller}}: primaries this replica caches (its share). */
    public static final String SHARDING_OBJECTS = "kubeloop_sharding_objects";
    /** {@code kubeloop_sharding_rebalances_total{ring}}: membership changes seen. */
    public static final String SHARDING_REBALANCES = "kubeloop_sharding_rebalances";
    /** {@code kubeloop_sharding_handoff_seconds{ring,direction}}: completed bucket handoffs and their duration. */
    public static final String SHARDING_HANDOFF = "kubeloop_sharding_handoff";
    /** {@code kubeloop_sharding_handoffs_in_flight{ring}}: buckets moving now. */
    public static final String SHARDING_HANDOFFS_IN_FLIGHT = "kubeloop_sharding_handoffs_in_flight";
    /** {@code leader_election_master_status{name}}: 1 while this replica holds the Lease, else 0. */
    public static final String LEADER_ELECTION_MASTER_STATUS = "leader_election_master_status";
    /** {@code controller_runtime_active_workers{controller}}. */
    public static final String ACTIVE_WORKERS = "controller_runtime_active_workers";
    /** {@code controller_runtime_max_concurrent_reconciles{controller}}. */
    public static final String MAX_CONCURRENT_RECONCILES = "controller_runtime_max_concurrent_reconciles";
    /** {@code workqueue_depth{name,controller,priority}}. */
    public static final String WORKQUEUE_DEPTH = "workqueue_depth";
    /** {@code workqueue_adds_total{name,controller}}. */
    public static final String WORKQUEUE_ADDS = "workqueue_adds_total";
    /** {@code workqueue_queue_duration_seconds{name,controller}}, a histogram: Micrometer adds the unit. */
    public static final String WORKQUEUE_QUEUE_DURATION = "workqueue_queue_duration";
    /** {@code workqueue_work_duration_seconds{name,controller}}, a histogram: Micrometer adds the unit. */
    public static final String WORKQUEUE_WORK_DURATION = "workqueue_work_duration";
    /** {@code workqueue_unfinished_work_seconds{name,controller}}. */
    public static final String WORKQUEUE_UNFINISHED_WORK = "workqueue_unfinished_work_seconds";
    /** {@code workqueue_longest_running_processor_seconds{name,controller}}. */
    public static final String WORKQUEUE_LONGEST_RUNNING_PROCESSOR = "workqueue_longest_running_processor_seconds";
    /** {@code workqueue_retries_total{name,controller}}. */
    public static final String WORKQUEUE_RETRIES = "workqueue_retries_total";
    /** {@code kubeloop_informer_cached_objects{group,version,kind,watch_namespace,label_selector,field_selector,metadata_only}}. */
    public static final String INFORMER_CACHED_OBJECTS = "kubeloop_informer_cached_objects";
    /** {@code kubeloop_informer_watch_restarts_total{group,version,kind,watch_namespace,label_selector,field_selector,metadata_only}}. */
    public static final String INFORMER_WATCH_RESTARTS = "kubeloop_informer_watch_restarts_total";

    /** {@code kubeloop_informer_list_watch_failures_total{...informer tags}}: how often its list/watch started failing. */
    public static final String INFORMER_LIST_WATCH_FAILURES = "kubeloop_informer_list_watch_failures_total";
    /** {@code kubeloop_informer_list_watch_failing{...informer tags}}: 1 while its list/watch fails, else 0. */
    public static final String INFORMER_LIST_WATCH_FAILING = "kubeloop_informer_list_watch_failing";

    /** {@code kubeloop_writes_total{controller,operation}}: requests a controller's writes sent. */
    public static final String WRITES = "kubeloop_writes_total";
    /** {@code kubeloop_writes_skipped_total{controller,operation}}: writes not sent because they would change nothing. */
    public static final String WRITES_SKIPPED = "kubeloop_writes_skipped_total";
    /** {@code kubeloop_read_your_writes_stale_reads_total{controller,avoided}}. */
    public static final String STALE_READS = "kubeloop_read_your_writes_stale_reads_total";
    /**
     * {@code kubeloop_read_your_writes_cache_lag_seconds{controller}}, a histogram (Micrometer adds
     * the unit): from a write's response to the informer's event of that version.
     */
    public static final String CACHE_LAG = "kubeloop_read_your_writes_cache_lag";

    /** {@code kubeloop_reconcile_resting_keys{controller}}: keys that ran out of attempts and wait for a change. */
    public static final String RESTING_KEYS = "kubeloop_reconcile_resting_keys";
    /** {@code kubeloop_reconcile_retries_exhausted_total{controller}}: how often a key ran out of attempts. */
    public static final String RETRIES_EXHAUSTED = "kubeloop_reconcile_retries_exhausted_total";

    /** The {@code watch_namespace} of an informer over all namespaces, or of a cluster-scoped type. */
    public static final String ALL_NAMESPACES = "*";

    /** The priorities the runtime queues at: {@code workqueue_depth} has one series for each. */
    static final List<Integer> PRIORITIES = List.of(WorkQueue.NORMAL_PRIORITY, WorkQueue.LOW_PRIORITY);

    private final MeterRegistry registry;

    public KubeloopMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public ControllerListener controllerRegistered(ControllerConfig<?> config) {
        return new ControllerMetrics(registry, config.name());
    }

    @Override
    public void managerStarting(ControllerManager manager) {
        for (Controller<?> controller : manager.controllers()) {
            bindGauges(controller);
        }
        List<InformerStatus> informers = manager.informers();
        for (int i = 0; i < informers.size(); i++) {
            bindInformer(manager, i, informers.get(i));
        }
        if (manager.sharding().isPresent()) {
            bindSharding(manager);
        }
        LeadershipState leadership = manager.leadership();
        if (leadership.enabled()) {
            // client-go's name: the Lease name; 1 on the leader, 0 on a standby, so max() over replicas says "someone leads"
            Gauge.builder(LEADER_ELECTION_MASTER_STATUS, manager, m -> m.leadership().isLeader() ? 1 : 0)
                    .description("Gauge of if the reporting system is master of the relevant lease, 0 indicates "
                            + "backup, 1 indicates master. 'name' is the string used to identify the lease.")
                    .tags("name", leadership.leaseName())
                    .register(registry);
        }
    }

    /** The ring's meters, when the manager shards its work; tag {@code ring}. */
    private void bindSharding(ControllerManager manager) {
        ShardingState initial = manager.sharding().orElseThrow();
        Tags ring = Tags.of("ring", initial.ring());
        ToDoubleFunction<ControllerManager> inRing = m -> sharding(m).inRing() ? 1 : 0;
        Gauge.builder(SHARDING_IN_RING, manager, inRing)
                .description("1 while this replica is a member of its ring (its Lease renewed in time), else 0")
                .tags(ring).register(registry);
        Gauge.builder(SHARDING_MEMBERS, manager, m -> sharding(m).liveMembers())
                .description("Live members of the ring, as this replica sees them").tags(ring).register(registry);
        Gauge.builder(SHARDING_BUCKETS, manager, m -> sharding(m).held().size())
                .description("Buckets this replica holds (reconciles), or should hold by the ring's assignment")
                .tags(ring).tag("state", "held").register(registry);
        Gauge.builder(SHARDING_BUCKETS, manager, m -> sharding(m).target().size())
                .description("Buckets this replica holds (reconciles), or should hold by the ring's assignment")
                .tags(ring).tag("state", "target").register(registry);
        Gauge.builder(SHARDING_HANDOFFS_IN_FLIGHT, manager, m -> sharding(m).handoffs().size())
                .description("Buckets moving to or from this replica now").tags(ring).register(registry);
        FunctionCounter.builder(SHARDING_REBALANCES, manager, m -> sharding(m).rebalances())
                .description("Changes of the ring's membership this replica saw").tags(ring).register(registry);
        for (String direction : List.of("in", "out")) {
            java.util.function.Function<ControllerManager, ShardingState.Handoffs> handoffs = m -> direction.equals("in")
                    ? sharding(m).handoffsIn() : sharding(m).handoffsOut();
            FunctionTimer.builder(SHARDING_HANDOFF, manager, m -> handoffs.apply(m).count(),
                    m -> handoffs.apply(m).total().toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS)
                    .description("Buckets handed over: in, from the handoff's start to its first list synced; out, "
                            + "from closing the bucket to its last reconcile's end")
                    .tags(ring).tag("direction", direction).register(registry);
        }
        for (Controller<?> controller : manager.controllers()) {
            String name = controller.name();
            Gauge.builder(SHARDING_OBJECTS, manager, m -> sharding(m).objects().getOrDefault(name, 0))
                    .description("Primaries this replica caches: its share of the objects")
                    .tags(ring).tag("controller", name).register(registry);
        }
    }

    private static ShardingState sharding(ControllerManager manager) {
        return manager.sharding().orElseThrow();
    }

    private void bindGauges(Controller<?> controller) {
        String name = controller.name();
        Tags controllerTag = Tags.of("controller", name);
        Tags queueTags = Tags.of("name", name, "controller", name);
        Gauge.builder(ACTIVE_WORKERS, controller, Controller::activeWorkers)
                .description("Number of currently used workers per controller")
                .tags(controllerTag).register(registry);
        Gauge.builder(MAX_CONCURRENT_RECONCILES, controller, c -> c.config().workers())
                .description("Maximum number of concurrent reconciles per controller")
                .tags(controllerTag).register(registry);
        for (int priority : PRIORITIES) {
            Gauge.builder(WORKQUEUE_DEPTH, controller,
                            c -> c.queueStats().depthByPriority().getOrDefault(priority, 0))
                    .description("Current depth of workqueue by workqueue and priority")
                    .tags(queueTags).tag("priority", Integer.toString(priority)).register(registry);
        }
        Gauge.builder(RESTING_KEYS, controller, Controller::restingKeys)
                .description("Keys that failed max-attempts times in a row and are not retried until their object "
                        + "changes")
                .tags(controllerTag).register(registry);
        Gauge.builder(WORKQUEUE_UNFINISHED_WORK, controller, c -> c.queueStats().unfinishedWorkSeconds())
                .description("How many seconds of work has been done that is in progress and hasn't been observed by "
                        + "work_duration. Large values indicate stuck threads. One can deduce the number of stuck "
                        + "threads by observing the rate at which this increases.")
                .tags(queueTags).register(registry);
        Gauge.builder(WORKQUEUE_LONGEST_RUNNING_PROCESSOR, controller,
                        c -> c.queueStats().longestRunningProcessorSeconds())
                .description("How many seconds has the longest running processor for workqueue been running.")
                .tags(queueTags).register(registry);
    }

    /**
     * The informers' list is fixed once the manager starts, so an index identifies one; each sample
     * reads a fresh snapshot (a handful of records, no copy of the cache).
     */
    private void bindInformer(ControllerManager manager, int index, InformerStatus informer) {
        Tags tags = Tags.of("group", informer.group(), "version", informer.version(), "kind", informer.kind(),
                "watch_namespace", informer.namespace() == null ? ALL_NAMESPACES : informer.namespace(),
                "label_selector", informer.labelSelector(), "field_selector", informer.fieldSelector(),
                "metadata_only", String.valueOf(informer.metadataOnly()));
        ToDoubleFunction<ControllerManager> cached = m -> m.informers().get(index).cachedObjects();
        ToDoubleFunction<ControllerManager> restarts = m -> m.informers().get(index).watchRestarts();
        Gauge.builder(INFORMER_CACHED_OBJECTS, manager, cached)
                .description("Number of objects in the informer's cache")
                .tags(tags).register(registry);
        FunctionCounter.builder(INFORMER_WATCH_RESTARTS, manager, restarts)
                .description("Number of times the informer listed and watched again after its first list, because "
                        + "its watch expired (410 Gone) or failed")
                .tags(tags).register(registry);
        FunctionCounter.builder(INFORMER_LIST_WATCH_FAILURES, manager, m -> m.informers().get(index).listWatchFailures())
                .description("Number of times the informer's list/watch started failing: it had not been watching for "
                        + "5 s (API server unreachable, resource no longer served, access revoked)")
                .tags(tags).register(registry);
        Gauge.builder(INFORMER_LIST_WATCH_FAILING, manager, m -> m.informers().get(index).listWatchFailing() ? 1 : 0)
                .description("1 while the informer's list/watch fails and its cache does not follow the API server")
                .tags(tags).register(registry);
    }
}
