package dev.kubeloop.autoconfigure.controller;

import dev.kubeloop.leader.LeaderElectionSettings;
import dev.kubeloop.leader.OnLost;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.sharding.ShardingSettings;
import dev.kubeloop.webhook.WebhookSettings;
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
 * <p>Defaults come from the runtime's catalog of settings ({@link Settings},
 * {@link LeaderElectionSettings}), their one definition; the IDE metadata repeats them in
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

    /** Leader election on a Lease, so that one replica of the operator acts and the others stand by. */
    private final LeaderElection leaderElection = new LeaderElection();

    /** The HTTPS server of the operator's validators, defaulters and converters. */
    private final Webhook webhook = new Webhook();

    /**
     * Sharding: active-active replicas that split the primaries, their caches and their reconciles
     * among them (instead of leader election); see docs/sharding.md.
     */
    private final Sharding sharding = new Sharding();

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

    public LeaderElection getLeaderElection() {
        return leaderElection;
    }

    public Sharding getSharding() {
        return sharding;
    }

    public Webhook getWebhook() {
        return webhook;
    }

    /**
     * The webhook server: admission and conversion webhooks over HTTPS on a port of their own,
     * with the certificate of a Spring Boot SSL bundle. See docs/webhooks.md.
     */
    public static class Webhook {

        /**
         * Whether to serve the application's validators, defaulters and converters; the server starts
         * only when there is at least one.
         */
        private boolean enabled = WebhookSettings.ENABLED.defaultValue();

        /** HTTPS port of the webhook server (controller-runtime's default 9443); 0 takes any free port. */
        private int port = WebhookSettings.PORT.defaultValue();

        /** Address the webhook server listens on; 0.0.0.0 is every interface. */
        private String address = WebhookSettings.ADDRESS.defaultValue();

        /**
         * Name of the SSL bundle with the serving certificate and key, e.g. PEM files mounted from a
         * Secret: spring.ssl.bundle.pem.<name>.keystore.certificate and .private-key, with
         * reload-on-update=true so that a renewed certificate is served without a restart.
         */
        private String sslBundle = WebhookSettings.SSL_BUNDLE.defaultValue();

        /**
         * Threads running the validators, defaulters and converters; TLS and HTTP run on the
         * server's own event loops.
         */
        private int threads = WebhookSettings.THREADS.defaultValue();

        /**
         * Connections the webhook server holds open at once; at the limit the oldest connection not
         * serving a request is closed to make room for the new one.
         */
        private int maxConnections = WebhookSettings.MAX_CONNECTIONS.defaultValue();

        /** How long a connection may take from its accept to a completed TLS handshake. */
        private Duration handshakeTimeout = WebhookSettings.HANDSHAKE_TIMEOUT.defaultValue();

        /** How long a keep-alive connection may wait for its next request before it is closed. */
        private Duration idleTimeout = WebhookSettings.IDLE_TIMEOUT.defaultValue();

        /** How long a request may take to arrive whole once it has begun; then 408 and closed. */
        private Duration requestTimeout = WebhookSettings.REQUEST_TIMEOUT.defaultValue();

        /**
         * Bytes of request bodies over 64 KiB held at once, from their first byte to the end of
         * their parse; a large body that does not fit is answered 503 without being read. Parsing
         * costs a multiple of the body: see docs/webhooks.md before raising it.
         */
        private long bodyBudget = WebhookSettings.BODY_BUDGET.defaultValue();

        /** Development only: registering the webhooks with the cluster, served by this process. */
        private final DevRegistration devRegistration = new DevRegistration();

        public DevRegistration getDevRegistration() {
            return devRegistration;
        }

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public int getPort() {
            return port;
        }

        public void setPort(int port) {
            this.port = port;
        }

        public String getAddress() {
            return address;
        }

        public void setAddress(String address) {
            this.address = address;
        }

        public String getSslBundle() {
            return sslBundle;
        }

        public void setSslBundle(String sslBundle) {
            this.sslBundle = sslBundle;
        }

        public int getThreads() {
            return threads;
        }

        public void setThreads(int threads) {
            this.threads = threads;
        }

        public int getMaxConnections() {
            return maxConnections;
        }

        public void setMaxConnections(int maxConnections) {
            this.maxConnections = maxConnections;
        }

        public Duration getHandshakeTimeout() {
            return handshakeTimeout;
        }

        public void setHandshakeTimeout(Duration handshakeTimeout) {
            this.handshakeTimeout = handshakeTimeout;
        }

        public Duration getIdleTimeout() {
            return idleTimeout;
        }

        public void setIdleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }

        public Duration getRequestTimeout() {
            return requestTimeout;
        }

        public void setRequestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
        }

        public long getBodyBudget() {
            return bodyBudget;
        }

        public void setBodyBudget(long bodyBudget) {
            this.bodyBudget = bodyBudget;
        }

        /**
         * The development loop ({@code kubeloop.webhook.dev-registration.*}): registrations that point
         * the API server at this process, with a CA made for the run. Never in a cluster.
         */
        public static class DevRegistration {

            /**
             * Whether to register the webhooks with the cluster this application talks to, served by this
             * process with a throwaway CA (clientConfig.url), and remove them at stop. For development
             * against a cluster (spring-boot:run); start-up fails inside a cluster.
             */
            private boolean enabled = WebhookSettings.DEV_REGISTRATION.defaultValue();

            /**
             * Host in the registrations' URL: this machine as the API server sees it (127.0.0.1 for an
             * API server on this machine; e.g. host.docker.internal or the bridge's address for kind).
             */
            private String host = WebhookSettings.DEV_REGISTRATION_HOST.defaultValue();

            public boolean isEnabled() {
                return enabled;
            }

            public void setEnabled(boolean enabled) {
                this.enabled = enabled;
            }

            public String getHost() {
                return host;
            }

            public void setHost(String host) {
                this.host = host;
            }
        }
    }

    /**
     * Sharding: every replica holds its own Lease in a ring, the primaries are split into buckets
     * by a hash of their uid, and each replica caches and reconciles the buckets the ring gives it.
     * Replaces leader election (the two are mutually exclusive); see docs/sharding.md.
     */
    public static class Sharding {

        /** Whether replicas shard the primaries among them (active-active) instead of electing a leader. */
        private boolean enabled = ShardingSettings.ENABLED.defaultValue();

        /**
         * Name of the ring: a DNS label, the same for all replicas of one operator. It names the
         * members' Leases and the slot label (shard.kubeloop.dev/<ring>). Defaults to
         * spring.application.name made a DNS label.
         */
        private String ringName;

        /** Namespace of the members' Leases. Defaults to the pod's namespace, as for leader election. */
        private String namespace;

        /**
         * This replica's identity in the ring; unique per process, lower case. Defaults to the pod's
         * host name plus a random suffix.
         */
        private String identity;

        /**
         * How many buckets the primaries are split into: a power of two up to 1024, at least the
         * number of replicas (more buckets move objects in smaller steps). Every replica must agree.
         */
        private int buckets = ShardingSettings.BUCKETS.defaultValue();

        /**
         * How long after a member's last renewal the others take its buckets over (a replica that
         * died); whole seconds, longer than renew-deadline.
         */
        private Duration leaseDuration = ShardingSettings.LEASE_DURATION.defaultValue();

        /** How long a member keeps reconciling without a successful renewal of its Lease. */
        private Duration renewDeadline = ShardingSettings.RENEW_DEADLINE.defaultValue();

        /** How often a member renews its Lease. */
        private Duration retryPeriod = ShardingSettings.RETRY_PERIOD.defaultValue();

        /**
         * How long a bucket given away waits for its reconciles in flight before they are
         * interrupted; the next holder starts once they ended.
         */
        private Duration drainTimeout = ShardingSettings.DRAIN_TIMEOUT.defaultValue();

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getRingName() {
            return ringName;
        }

        public void setRingName(String ringName) {
            this.ringName = ringName;
        }

        public String getNamespace() {
            return namespace;
        }

        public void setNamespace(String namespace) {
            this.namespace = namespace;
        }

        public String getIdentity() {
            return identity;
        }

        public void setIdentity(String identity) {
            this.identity = identity;
        }

        public int getBuckets() {
            return buckets;
        }

        public void setBuckets(int buckets) {
            this.buckets = buckets;
        }

        public Duration getLeaseDuration() {
            return leaseDuration;
        }

        public void setLeaseDuration(Duration leaseDuration) {
            this.leaseDuration = leaseDuration;
        }

        public Duration getRenewDeadline() {
            return renewDeadline;
        }

        public void setRenewDeadline(Duration renewDeadline) {
            this.renewDeadline = renewDeadline;
        }

        public Duration getRetryPeriod() {
            return retryPeriod;
        }

        public void setRetryPeriod(Duration retryPeriod) {
            this.retryPeriod = retryPeriod;
        }

        public Duration getDrainTimeout() {
            return drainTimeout;
        }

        public void setDrainTimeout(Duration drainTimeout) {
            this.drainTimeout = drainTimeout;
        }
    }

    /**
     * Leader election: every replica syncs its caches, only the holder of the Lease reconciles.
     * Timings as in client-go; see docs/operations.md.
     */
    public static class LeaderElection {

        /**
         * Whether replicas elect a leader through a Lease. Unset: on when Spring Boot detects
         * Kubernetes as the cloud platform (or spring.main.cloud-platform=kubernetes), off otherwise.
         */
        private Boolean enabled;

        /**
         * Name of the Lease; the same for all replicas of one operator. Defaults to
         * "<spring.application.name>-leader".
         */
        private String leaseName;

        /**
         * Namespace of the Lease. Defaults to the pod's namespace (service account mount, then the
         * POD_NAMESPACE environment variable), else the client's namespace, else "default".
         */
        private String leaseNamespace;

        /**
         * This replica's identity in the Lease; must be unique per process. Defaults to the pod's
         * host name plus a random suffix.
         */
        private String identity;

        /**
         * How long after the leader's last renewal another replica may take the Lease over; whole
         * seconds, longer than renew-deadline.
         */
        private Duration leaseDuration = LeaderElectionSettings.LEASE_DURATION.defaultValue();

        /**
         * How long the leader keeps acting without a successful renewal; longer than 2.2 times
         * retry-period.
         */
        private Duration renewDeadline = LeaderElectionSettings.RENEW_DEADLINE.defaultValue();

        /** How often the leader renews the Lease and a standby tries to acquire it. */
        private Duration retryPeriod = LeaderElectionSettings.RETRY_PERIOD.defaultValue();

        /**
         * Whether a graceful shutdown releases the Lease once reconciles in flight have finished,
         * so that a standby takes over at once instead of after lease-duration.
         */
        private boolean releaseOnShutdown = LeaderElectionSettings.RELEASE_ON_SHUTDOWN.defaultValue();

        /**
         * What a leader does when it loses the Lease: stop its workers, then exit with a non-zero
         * code so that Kubernetes restarts it ("exit"), or stand by again ("standby").
         */
        private OnLost onLost = LeaderElectionSettings.ON_LOST.defaultValue();

        public Boolean getEnabled() {
            return enabled;
        }

        public void setEnabled(Boolean enabled) {
            this.enabled = enabled;
        }

        public String getLeaseName() {
            return leaseName;
        }

        public void setLeaseName(String leaseName) {
            this.leaseName = leaseName;
        }

        public String getLeaseNamespace() {
            return leaseNamespace;
        }

        public void setLeaseNamespace(String leaseNamespace) {
            this.leaseNamespace = leaseNamespace;
        }

        public String getIdentity() {
            return identity;
        }

        public void setIdentity(String identity) {
            this.identity = identity;
        }

        public Duration getLeaseDuration() {
            return leaseDuration;
        }

        public void setLeaseDuration(Duration leaseDuration) {
            this.leaseDuration = leaseDuration;
        }

        public Duration getRenewDeadline() {
            return renewDeadline;
        }

        public void setRenewDeadline(Duration renewDeadline) {
            this.renewDeadline = renewDeadline;
        }

        public Duration getRetryPeriod() {
            return retryPeriod;
        }

        public void setRetryPeriod(Duration retryPeriod) {
            this.retryPeriod = retryPeriod;
        }

        public boolean isReleaseOnShutdown() {
            return releaseOnShutdown;
        }

        public void setReleaseOnShutdown(boolean releaseOnShutdown) {
            this.releaseOnShutdown = releaseOnShutdown;
        }

        public OnLost getOnLost() {
            return onLost;
        }

        public void setOnLost(OnLost onLost) {
            this.onLost = onLost;
        }
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
