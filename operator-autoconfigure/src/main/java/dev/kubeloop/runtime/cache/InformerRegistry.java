package dev.kubeloop.runtime.cache;

import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates and shares the fabric8 {@link SharedIndexInformer}s of all controllers: one informer per
 * {@link InformerKey} (type, namespace, selectors, whole objects or metadata only), whoever asks
 * for it and in whichever role (primary, owned, watched), so two reconcilers watching Secrets in
 * one scope cost one list and one watch. A scope of several namespaces is one informer per
 * namespace, aggregated by {@link ResourceCache}.
 *
 * <p>Two phases. While registering, controllers add their requests ({@link CacheRequest}: handlers,
 * which are fabric8 {@code ResourceEventHandler}s since the cache knows nothing of work queues, and
 * indexes); nothing talks to the API server. {@link #start()} then creates every informer with all
 * of its handlers and indexes in place (fabric8 fixes an informer's resync check period, item store
 * and indexers when it starts) and starts it; {@link #awaitSynced} waits for their first lists.
 *
 * <p>Optional types: an informer every request of which said its type may be absent does not fail
 * the start when the type is not served; it waits, and {@link OptionalTypes} starts it when the
 * type appears and stops it when the type goes. Its cache is empty while it waits, and it does not
 * hold readiness back.
 *
 * <p>Informers leave out objects their type cannot read, instead of failing their whole list (see
 * {@link TolerantListerWatcher}). Every informer gets an item store whose size is cheap to read,
 * a count of its re-lists, and a hook on its end: an informer that had synced and then stopped with
 * an error (fabric8 retries 410 Gone and failed lists, but not every watch error) is reported to
 * the {@link FailureListener}, because its cache no longer follows the API server; an optional
 * informer that stops so is taken to have lost its type and waits for it instead.
 *
 * <p>Outages: fabric8 retries a failed watch or list by itself, silently; {@link ListWatchMonitor}
 * logs one line when an informer's list/watch starts failing and one when it recovers, and its
 * status says since when and why ({@link ListWatchHealth}). A required type whose CRD is deleted
 * is reported so (HTTP 404) and picked up again by fabric8's retries when the CRD returns; an
 * optional type's informer stops instead and starts again (see above).
 *
 * <p>Sharded scopes: with a {@link ShardLayout}, a {@linkplain CacheRequest#sharded(boolean) sharded}
 * request gets one informer per bucket (and namespace), selecting the bucket's slot label. They do
 * not start with the others: {@link #startBucket} starts a bucket's informers when this replica
 * takes the bucket, {@link #stopBucket} drops them (and their cached objects, silently: the objects
 * still exist, another replica caches them now) when it gives the bucket away. Their first list is
 * not older than a resourceVersion the caller gives (later than every write of the bucket's
 * previous holder), so that a replica taking a bucket over sees at least those writes; the API
 * server answers it from its watch cache. Readiness and the sync wait cover the started ones.
 *
 * <p>Thread-safety: registration, start and stop are synchronized on this registry; the entries
 * publish their informers through volatile fields, so caches can be read from any thread.
 */
public final class InformerRegistry {

    private static final Logger log = LoggerFactory.getLogger(InformerRegistry.class);
    /**
     * An informer that has not been watching for this long is failing (logged, counted, shown):
     * five times fabric8's first reconnect delay, so that its routine reconnects never count.
     */
    static final Duration LIST_WATCH_FAILING_AFTER = Duration.ofSeconds(5);
    /** How often {@link ListWatchMonitor} samples the informers. */
    static final Duration LIST_WATCH_CHECK_INTERVAL = Duration.ofSeconds(1);

    private final KubernetesClient client;
    private final InformerFactory factory;
    private final FailureListener failures;
    private final Duration optionalTypesPollInterval;
    /** How sharded requests are split; null when this replica is not sharded. */
    private final ShardLayout shards;
    // guarded by this
    private final Map<InformerKey, InformerEntry<?>> entries = new LinkedHashMap<>();
    private boolean started;
    private OptionalTypes optionalTypes;
    private ListWatchMonitor listWatchMonitor;
    /** Set when stop begins, so that informers ending on request are not reported as failed. */
    private volatile boolean stopping;

    /**
     * @param shards how sharded requests are split into buckets; null: no request is sharded
     */
    public InformerRegistry(KubernetesClient client, boolean stripManagedFields, long listPageSize,
            Duration optionalTypesPollInterval, FailureListener failures, EventRecorder events, ShardLayout shards) {
        this.client = client;
        this.shards = shards;
        this.factory = new InformerFactory(client, stripManagedFields, listPageSize, events, shards);
        this.optionalTypesPollInterval = optionalTypesPollInterval;
        this.failures = failures;
    }

    /** Whether the caches drop {@code metadata.managedFields} (kubeloop.strip-managed-fields). */
    public boolean stripsManagedFields() {
        return factory.stripsManagedFields();
    }

    /** Hears about an informer that stopped for good after it had synced. Must be thread-safe and fast. */
    @FunctionalInterface
    public interface FailureListener {
        void informerFailed(InformerStatus informer, Throwable error);
    }

    /**
     * Registers {@code request} and returns the cache view for its scope.
     *
     * @throws dev.kubeloop.runtime.KubeloopConfigurationException if an index it declares exists
     *     already on a shared informer with a different function
     */
    public synchronized <T extends HasMetadata> ResourceCache<T> register(CacheRequest<T> request) {
        if (started) {
            throw new IllegalStateException("informers are already started; register before starting");
        }
        Class<T> type = request.type();
        List<String> scopes = new ArrayList<>();
        if (request.namespaces().isEmpty() || !Namespaced.class.isAssignableFrom(type)) {
            scopes.add(null);
        } else {
            scopes.addAll(new TreeSet<>(request.namespaces()));
        }
        List<Integer> buckets = new ArrayList<>();
        if (request.sharded() && shards != null) {
            for (int bucket = 0; bucket < shards.buckets(); bucket++) {
                buckets.add(bucket);
            }
        } else {
            buckets.add(InformerKey.UNSHARDED);
        }
        List<InformerEntry<T>> scoped = new ArrayList<>();
        for (String namespace : scopes) {
            for (int bucket : buckets) {
                InformerKey key = new InformerKey(type, namespace, request.labelSelector(), request.fieldSelector(),
                        request.metadataOnly(), bucket);
                @SuppressWarnings("unchecked")
                InformerEntry<T> entry = (InformerEntry<T>) entries.computeIfAbsent(key, InformerEntry::new);
                entry.add(request, request.handlers() == null ? null : request.handlers().handlerFor(key.describe()));
                scoped.add(entry);
            }
        }
        return new ResourceCache<>(type, scoped);
    }

    /** How sharded requests are split, if this registry shards any. */
    public Optional<ShardLayout> shards() {
        return Optional.ofNullable(shards);
    }

    /**
     * Starts the informers of {@code bucket} (every sharded scope's); completes when all have
     * synced, exceptionally if one failed to list. Does nothing for informers of the bucket that
     * run already.
     */
    public synchronized CompletableFuture<Void> startBucket(int bucket) {
        if (!started || stopping) {
            return CompletableFuture.failedFuture(new IllegalStateException("informers are not running"));
        }
        List<CompletableFuture<Void>> synced = new ArrayList<>();
        for (InformerEntry<?> entry : entries.values()) {
            if (entry.key().bucket() == bucket) {
                entry.start(factory, this::stoppedWithError);
                synced.add(entry.started());
            }
        }
        return CompletableFuture.allOf(synced.toArray(CompletableFuture[]::new));
    }

    /**
     * Stops the informers of {@code bucket}: their cached objects leave the caches without delete
     * events (they were not deleted; another replica caches them now). Idempotent.
     */
    public synchronized void stopBucket(int bucket) {
        for (InformerEntry<?> entry : entries.values()) {
            if (entry.key().bucket() == bucket) {
                entry.stop(false);
            }
        }
    }

    /** How many informers {@link #start()} creates (or created). */
    public synchronized int size() {
        return entries.size();
    }

    /**
     * Starts every registered informer whose type is served (optional ones whose type is not
     * served wait for it); returns without waiting for their lists.
     */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("informers are already started");
        }
        started = true;
        ServedResourceCheck served = new ServedResourceCheck(client);
        List<InformerEntry<?>> optional = new ArrayList<>();
        for (InformerEntry<?> entry : entries.values()) {
            if (entry.key().sharded()) {
                continue; // started bucket by bucket, when this replica takes them
            }
            if (!entry.optional()) {
                startEntry(entry);
                continue;
            }
            optional.add(entry);
            if (served.isServed(entry.key().type())) {
                startEntry(entry);
            } else {
                entry.stop(true);
                log.info("Optional resource is not served, its informer waits for it: informer={}",
                        entry.key().describe());
            }
        }
        if (!optional.isEmpty()) {
            optionalTypes = new OptionalTypes(optional, served::isServed, this::startEntry);
            optionalTypes.start(optionalTypesPollInterval);
        }
        listWatchMonitor = new ListWatchMonitor(this::entries, LIST_WATCH_FAILING_AFTER, new ListWatchProbe(client));
        listWatchMonitor.start(LIST_WATCH_CHECK_INTERVAL);
    }

    private synchronized List<InformerEntry<?>> entries() {
        return List.copyOf(entries.values());
    }

    private <T extends HasMetadata> void startEntry(InformerEntry<T> entry) {
        entry.start(factory, this::stoppedWithError);
    }

    private <T extends HasMetadata> void stoppedWithError(InformerEntry<T> entry, Throwable error) {
        boolean hadSynced = entry.started().isDone() && !entry.started().isCompletedExceptionally();
        if (stopping || !hadSynced) {
            return; // a failed first list fails the start instead (awaitSynced)
        }
        if (entry.optional()) {
            // most likely its CRD went; the optional types' monitor starts it again if it is served
            log.info("Optional resource's informer stopped and waits for its type: informer={}: {}",
                    entry.key().describe(), error.toString());
            entry.stop(true);
            return;
        }
        entry.failed(error);
        log.error("Informer stopped after an error and no longer follows the API server: informer={}: {}",
                entry.key().describe(), error.toString());
        failures.informerFailed(entry.status(), error);
    }

    /**
     * Waits until every started informer has completed its first list, within {@code timeout} in
     * total; optional informers waiting for their type are not waited for.
     *
     * @throws KubeloopConfigurationException naming the first informer that failed or did not sync
     * @throws InterruptedException if interrupted while waiting
     */
    public void awaitSynced(Duration timeout) throws InterruptedException {
        List<InformerEntry<?>> snapshot;
        synchronized (this) {
            snapshot = List.copyOf(entries.values());
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        for (InformerEntry<?> entry : snapshot) {
            if (entry.waiting() || entry.key().sharded()) {
                continue;
            }
            try {
                entry.synced().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
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

    /** True once every informer not waiting for its type has completed its first list. */
    public synchronized boolean hasSynced() {
        for (InformerEntry<?> entry : entries.values()) {
            if (!entry.counts()) {
                continue;
            }
            if (!entry.waiting() && !entry.hasSynced()) {
                return false;
            }
        }
        return started;
    }

    /** Snapshots of every informer, in registration order; of sharded scopes, the running ones. */
    public synchronized List<InformerStatus> statuses() {
        return entries.values().stream().filter(InformerEntry::counts).map(InformerEntry::status).toList();
    }

    /** Stops every informer (closing its watch) and the optional types' monitor. Idempotent. */
    public synchronized void stop() {
        stopping = true;
        if (optionalTypes != null) {
            optionalTypes.close();
        }
        if (listWatchMonitor != null) {
            listWatchMonitor.close();
        }
        for (InformerEntry<?> entry : entries.values()) {
            entry.stop(false);
        }
        factory.close();
    }
}
