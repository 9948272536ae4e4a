package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileTrigger;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.queue.PriorityWorkQueue;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.queue.WorkQueueStats;
import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.cache.ResourceCache;
import dev.kubeloop.runtime.client.WriteTracker;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One reconciler at work, as health checks, metrics, introspection and tests see it: its settings,
 * its work queue, what its workers are doing and have done, and a way to queue a key (it is the
 * reconciler's {@link ReconcileTrigger}). Created by
 * {@link ControllerWorkers}, which the manager drives; this view cannot start or stop anything.
 *
 * <p>Thread-safe: every accessor reads a concurrent structure or takes a snapshot, and never
 * blocks for long (the queue snapshot takes the queue's lock briefly).
 *
 * @param <T> the primary resource type
 */
public final class Controller<T extends HasMetadata> implements ReconcileTrigger {

    private final ControllerConfig<T> config;
    private final PriorityWorkQueue<ObjectKey> queue;
    /** The queue for adds: {@code queue}, or with tracing on the same queue noting each add's cause. */
    private final WorkQueue<ObjectKey> adds;
    private final ResourceCache<T> primaryCache;
    /** The primary cache first, then the owned types' caches. */
    private final List<ResourceCache<?>> caches;
    private final ReconcileActivity activity;
    private final Optional<String> finalizer;
    private final ControllerWorkers<T> workers;
    private final WriteStats writes;
    private final WriteTracker tracker;
    private final FailingKeys failing;

    Controller(ControllerConfig<T> config, PriorityWorkQueue<ObjectKey> queue, WorkQueue<ObjectKey> adds,
            ResourceCache<T> primaryCache,
            List<ResourceCache<?>> caches, ReconcileActivity activity, Optional<String> finalizer,
            ControllerWorkers<T> workers, WriteStats writes, WriteTracker tracker, FailingKeys failing) {
        this.config = config;
        this.queue = queue;
        this.adds = adds;
        this.primaryCache = primaryCache;
        this.caches = List.copyOf(caches);
        this.activity = activity;
        this.finalizer = finalizer;
        this.workers = workers;
        this.writes = writes;
        this.tracker = tracker;
        this.failing = failing;
    }

    public String name() {
        return config.name();
    }

    public ControllerConfig<T> config() {
        return config;
    }

    /** The finalizer this controller manages: set when the reconciler implements {@code Cleaner}. */
    public Optional<String> finalizer() {
        return finalizer;
    }

    /** How many processed keys ended with {@code outcome} since start. */
    public long count(ReconcileOutcome outcome) {
        return activity.count(outcome);
    }

    /**
     * Keys that ran out of attempts ({@code max-attempts}) and rest: not queued again until their
     * object changes or a trigger queues them. Cheap.
     */
    public int restingKeys() {
        return failing.resting();
    }

    /** Whether {@code key} ran out of attempts and rests. */
    public boolean resting(ObjectKey key) {
        return failing.isResting(key);
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
        List<InformerStatus> informers = new ArrayList<>();
        for (ResourceCache<?> cache : caches) {
            informers.addAll(cache.statuses());
        }
        Throwable failure = workers.failure();
        return new ControllerStatus(name(), workers.started(), config.workers(), running.size(), workers.alive(),
                queue.stats(), running, activity.recentErrors(), activity.lastSuccess(), activity.counts(), informers,
                failure == null ? null : failure.toString(), writes.snapshot(tracker.pending()));
    }

    /** Where {@code key} stands in this controller's queue: absent, waiting (delayed), queued, or being reconciled. */
    public ItemState state(ObjectKey key) {
        return queue.state(key);
    }

    /** The resourceVersion of the primary object this controller's cache holds for {@code key}, if any. */
    public Optional<String> cachedResourceVersion(ObjectKey key) {
        return primaryCache.get(key).map(object -> object.getMetadata().getResourceVersion());
    }

    @Override
    public String reconciler() {
        return config.name();
    }

    @Override
    public boolean reconciles(ObjectKey key) {
        return primaryCache.get(key).isPresent();
    }

    /**
     * Queues {@code key} for a reconcile now, at {@code priority}, as if its object had changed.
     *
     * @return false if the controller is shutting down and the key was not queued
     */
    @Override
    public boolean enqueue(ObjectKey key, int priority) {
        if (workers.stopping() || queue.isShuttingDown()) {
            return false;
        }
        adds.add(key, priority);
        return true;
    }

    /** The queue for adds from outside the informers (noted as a {@code trigger} when traced). */
    WorkQueue<ObjectKey> adds() {
        return adds;
    }

    /** How many primaries this controller caches now (sharded: this replica's share). */
    public int cachedPrimaries() {
        return primaryCache.size();
    }

    /** The primary objects' cache. */
    ResourceCache<T> primaryCache() {
        return primaryCache;
    }

    @Override
    public String toString() {
        return "Controller[" + name() + "]";
    }
}
