package dev.kubeloop.autoconfigure.controller;

import dev.kubeloop.runtime.Settings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Kubeloop's configuration: global settings under {@code kubeloop.*} and per-reconciler overrides
 * of the {@code @Reconciler} attributes under {@code kubeloop.reconcilers.<name>.*}. See
 * {@code docs/configuration.md}. A mutable JavaBean bound once at startup; read it, do not change
 * it afterwards (the controllers are built from it when the context starts).
 *
 * <p>Each other concern has its properties class next to its auto-configuration, as Spring Boot's
 * modules do: {@code LeaderElectionProperties} ({@code kubeloop.leader-election.*}),
 * {@code ShardingProperties} ({@code kubeloop.sharding.*}), {@code WebhookProperties}
 * ({@code kubeloop.webhook.*}), {@code KubeloopTracingProperties} ({@code kubeloop.tracing.*}).
 *
 * <p>Defaults come from the runtime's catalog of settings ({@link Settings}), their one
 * definition; the IDE metadata repeats them in
 * {@code META-INF/additional-spring-configuration-metadata.json} (the annotation processor cannot
 * read a constant of another class), and {@code SettingsDocumentationTest} checks that it does.
 */
@ConfigurationProperties("kubeloop")
public class KubeloopProperties {

    /** Whether Kubeloop runs at all; false creates no Kubeloop bean and starts no reconciler. */
    private boolean enabled = Settings.ENABLED.defaultValue();

    /**
     * How long startup waits for every informer's first list before it fails, naming the resource
     * that did not sync.
     */
    private Duration cacheSyncTimeout = Settings.CACHE_SYNC_TIMEOUT.defaultValue();

    /**
     * How long shutdown waits for reconciles in flight before interrupting them. Keep it below
     * spring.lifecycle.timeout-per-shutdown-phase.
     */
    private Duration shutdownTimeout = Settings.SHUTDOWN_TIMEOUT.defaultValue();

    /**
     * Whether a SIGTERM ends the JVM with exit code 0 once the graceful shutdown has run (a
     * second one halts with 1), as controller-runtime does, instead of the JVM's 143. Read once,
     * at start.
     */
    private boolean exitZeroOnSigterm = Settings.EXIT_ZERO_ON_SIGTERM.defaultValue();

    /**
     * Whether cached objects drop metadata.managedFields, which reconcilers rarely read and which
     * can be the largest part of an object's metadata.
     */
    private boolean stripManagedFields = Settings.STRIP_MANAGED_FIELDS.defaultValue();

    /**
     * Objects per page when an informer lists its resources; 0 lists everything in one response.
     * Set it (500 is client-go's page size) when the operator caches tens of thousands of objects
     * in a small heap: a single response must otherwise fit in memory at once, JSON and all its
     * objects, managedFields included. Paged lists are read from etcd rather than the API
     * server's watch cache.
     */
    private long informerListPageSize = Settings.INFORMER_LIST_PAGE_SIZE.defaultValue();

    /**
     * Whether the application closes and exits (status 0) once it is ready: caches synced, workers
     * started. For the training run of the JVM's AOT cache (Java 25) or CDS archive, so that the
     * cache covers the informers' start and first lists, which spring.context.exit=onRefresh stops
     * before.
     */
    private boolean exitWhenReady = Settings.EXIT_WHEN_READY.defaultValue();

    /**
     * How often the API server is asked (API discovery, no RBAC needed) whether the optional types
     * of watches and reconcilers are served, so that their informers start when a CRD appears and
     * stop when it goes.
     */
    private Duration optionalTypePollInterval = Settings.OPTIONAL_TYPE_POLL_INTERVAL.defaultValue();

    /**
     * Whether a reconciler reads its own writes: the primary a reconcile starts with, and the
     * cached objects it reads, are never older than what its earlier reconciles wrote through the
     * reconcile context (apply, status, finalizer), even before the informers deliver those writes.
     * Off, such stale reads are only counted.
     */
    private boolean readYourWrites = Settings.READ_YOUR_WRITES.defaultValue();

    /**
     * Namespaces every reconciler watches unless its @Reconciler annotation or its
     * kubeloop.reconcilers.<name>.namespaces names others; empty means all namespaces. Useful to
     * confine a whole operator to one namespace (a namespaced install, a test namespace).
     */
    private List<String> namespaces = new ArrayList<>(Settings.NAMESPACES.defaultValue());

    /** Retry backoff of every reconciler's work queue (client-go's controller rate limiter). */
    private final RateLimiter rateLimiter = new RateLimiter();

    /** What each reconciler keeps for health and the /actuator/kubeloop introspection endpoint. */
    private final Introspection introspection = new Introspection();

    /**
     * Per-reconciler settings, by reconciler name; each one overrides the same attribute of the
     * reconciler's @Reconciler annotation.
     */
    private final Map<String, Reconciler> reconcilers = new LinkedHashMap<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public List<String> getNamespaces() {
        return namespaces;
    }

    public void setNamespaces(List<String> namespaces) {
        this.namespaces = namespaces;
    }

    public Duration getCacheSyncTimeout() {
        return cacheSyncTimeout;
    }

    public void setCacheSyncTimeout(Duration cacheSyncTimeout) {
        this.cacheSyncTimeout = cacheSyncTimeout;
    }

    public boolean isExitZeroOnSigterm() {
        return exitZeroOnSigterm;
    }

    public void setExitZeroOnSigterm(boolean exitZeroOnSigterm) {
        this.exitZeroOnSigterm = exitZeroOnSigterm;
    }

    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }

    public long getInformerListPageSize() {
        return informerListPageSize;
    }

    public void setInformerListPageSize(long informerListPageSize) {
        this.informerListPageSize = informerListPageSize;
    }

    public boolean isExitWhenReady() {
        return exitWhenReady;
    }

    public void setExitWhenReady(boolean exitWhenReady) {
        this.exitWhenReady = exitWhenReady;
    }

    public boolean isReadYourWrites() {
        return readYourWrites;
    }

    public void setReadYourWrites(boolean readYourWrites) {
        this.readYourWrites = readYourWrites;
    }

    public Duration getOptionalTypePollInterval() {
        return optionalTypePollInterval;
    }

    public void setOptionalTypePollInterval(Duration optionalTypePollInterval) {
        this.optionalTypePollInterval = optionalTypePollInterval;
    }

    public boolean isStripManagedFields() {
        return stripManagedFields;
    }

    public void setStripManagedFields(boolean stripManagedFields) {
        this.stripManagedFields = stripManagedFields;
    }

    public RateLimiter getRateLimiter() {
        return rateLimiter;
    }

    public Introspection getIntrospection() {
        return introspection;
    }

    public Map<String, Reconciler> getReconcilers() {
        return reconcilers;
    }

    /**
     * The retry backoff: the larger of a per-key exponential backoff and a token bucket shared by
     * all keys of one reconciler.
     */
    public static class RateLimiter {

        /** Delay before the first retry of a failing key; doubles on every further failure. */
        private Duration baseDelay = Settings.RATE_LIMITER_BASE_DELAY.defaultValue();

        /** Longest delay between two retries of one failing key. */
        private Duration maxDelay = Settings.RATE_LIMITER_MAX_DELAY.defaultValue();

        /** Retries per second one reconciler may make across all its keys, on average. */
        private double qps = Settings.RATE_LIMITER_QPS.defaultValue();

        /** Retries one reconciler may make at once before the qps limit applies. */
        private int burst = Settings.RATE_LIMITER_BURST.defaultValue();

        public Duration getBaseDelay() {
            return baseDelay;
        }

        public void setBaseDelay(Duration baseDelay) {
            this.baseDelay = baseDelay;
        }

        public Duration getMaxDelay() {
            return maxDelay;
        }

        public void setMaxDelay(Duration maxDelay) {
            this.maxDelay = maxDelay;
        }

        public double getQps() {
            return qps;
        }

        public void setQps(double qps) {
            this.qps = qps;
        }

        public int getBurst() {
            return burst;
        }

        public void setBurst(int burst) {
            this.burst = burst;
        }
    }

    /** What each reconciler keeps in memory for the /actuator/kubeloop introspection endpoint. */
    public static class Introspection {

        /** How many of its last failed reconciles each reconciler keeps (key, message, time, attempt); 0 keeps none. */
        private int lastErrors = Settings.INTROSPECTION_LAST_ERRORS.defaultValue();

        public int getLastErrors() {
            return lastErrors;
        }

        public void setLastErrors(int lastErrors) {
            this.lastErrors = lastErrors;
        }
    }

    /**
     * Overrides of one reconciler's @Reconciler attributes. Unset properties keep the annotation's
     * value.
     */
    public static class Reconciler {

        /** Worker threads, i.e. objects reconciled at once; at least 1. */
        private Integer workers;

        /** Namespaces to watch; empty watches all namespaces. */
        private List<String> namespaces;

        /** Label selector limiting which primary objects are watched, e.g. app=web,tier!=cache. */
        private String labelSelector;

        /** Whether primary updates that change only status (or nothing) are skipped. */
        private Boolean generationAware;

        /** How often every cached primary is reconciled again even without changes; 0 disables. */
        private Duration resyncPeriod;

        /** Interrupt and retry a reconcile that runs longer than this; 0 means no limit. */
        private Duration reconcileTimeout;

        /**
         * Failed reconciles in a row after which a key rests (no retry, a RetriesExhausted Warning
         * event, a Stalled condition) until its object changes; 0 means no limit.
         */
        private Integer maxAttempts;

        /** The finalizer to manage, a domain-qualified name such as example.com/cleanup. */
        private String finalizer;

        /**
         * The field manager of the reconciler's server-side applies; defaults to the reconciler's
         * name. Changing it hands the fields to a new manager: the old one's stay owned until removed.
         */
        private String fieldManager;

        public Integer getWorkers() {
            return workers;
        }

        public void setWorkers(Integer workers) {
            this.workers = workers;
        }

        public List<String> getNamespaces() {
            return namespaces;
        }

        public void setNamespaces(List<String> namespaces) {
            this.namespaces = namespaces == null ? null : new ArrayList<>(namespaces);
        }

        public String getLabelSelector() {
            return labelSelector;
        }

        public void setLabelSelector(String labelSelector) {
            this.labelSelector = labelSelector;
        }

        public Boolean getGenerationAware() {
            return generationAware;
        }

        public void setGenerationAware(Boolean generationAware) {
            this.generationAware = generationAware;
        }

        public Duration getResyncPeriod() {
            return resyncPeriod;
        }

        public void setResyncPeriod(Duration resyncPeriod) {
            this.resyncPeriod = resyncPeriod;
        }

        public Duration getReconcileTimeout() {
            return reconcileTimeout;
        }

        public void setReconcileTimeout(Duration reconcileTimeout) {
            this.reconcileTimeout = reconcileTimeout;
        }

        public Integer getMaxAttempts() {
            return maxAttempts;
        }

        public void setMaxAttempts(Integer maxAttempts) {
            this.maxAttempts = maxAttempts;
        }

        public String getFinalizer() {
            return finalizer;
        }

        public void setFinalizer(String finalizer) {
            this.finalizer = finalizer;
        }

        public String getFieldManager() {
            return fieldManager;
        }

        public void setFieldManager(String fieldManager) {
            this.fieldManager = fieldManager;
        }
    }
}
