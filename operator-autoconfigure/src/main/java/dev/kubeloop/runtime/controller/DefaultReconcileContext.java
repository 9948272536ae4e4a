package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ApplyOptions;
import dev.kubeloop.api.CacheReader;
import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.runtime.cache.OwnerIndex;
import dev.kubeloop.runtime.client.WriteTracker;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;

/**
 * The {@link ReconcileContext} of one reconcile call. Reads go to the controller's caches
 * ({@link ControllerCaches}); {@link #owned} uses the {@link OwnerIndex}, then keeps only objects
 * whose controller reference carries the primary's uid (the index already guarantees that; the
 * filter documents it).
 *
 * <p>Created per call by the worker thread and meant to be used by it; holds no mutable state.
 */
final class DefaultReconcileContext<T extends HasMetadata> implements ReconcileContext<T> {

    private final String controllerName;
    private final ObjectKey key;
    private final int retryCount;
    private final String primaryUid;
    private final KubernetesClient client;
    private final ControllerCaches caches;
    private final Set<Class<?>> ownedTypes;
    private final EventRecorder events;
    private final Logger log;
    private final ControllerWrites writes;
    private final ControllerWrites.Scope scope;
    private final WriteTracker tracker;

    DefaultReconcileContext(String controllerName, ObjectKey key, int retryCount, String primaryUid,
            KubernetesClient client, ControllerCaches caches, Set<Class<?>> ownedTypes, EventRecorder events,
            Logger log, ControllerWrites writes, ControllerWrites.Scope scope, WriteTracker tracker) {
        this.controllerName = controllerName;
        this.key = key;
        this.retryCount = retryCount;
        this.primaryUid = primaryUid;
        this.client = client;
        this.caches = caches;
        this.ownedTypes = ownedTypes;
        this.events = events;
        this.log = log;
        this.writes = writes;
        this.scope = scope;
        this.tracker = tracker;
    }

    @Override
    public String controllerName() {
        return controllerName;
    }

    @Override
    public ObjectKey key() {
        return key;
    }

    @Override
    public int retryCount() {
        return retryCount;
    }

    @Override
    public KubernetesClient client() {
        return client;
    }

    @Override
    public <R extends HasMetadata> List<R> owned(Class<R> type) {
        if (!ownedTypes.contains(type)) {
            throw new IllegalArgumentException(type.getName() + " is not owned by reconciler '" + controllerName
                    + "': add it to @Reconciler(owns = ...) or watches.owns(...)");
        }
        if (primaryUid == null) {
            return List.of();
        }
        // read-your-writes: this controller's own newer writes replace what the cache holds, the
        // objects it created that the informer has not delivered yet are there too, those it deleted are not
        Map<WriteTracker.Ref, R> owned = new LinkedHashMap<>();
        for (R object : caches.cache(type).byIndex(OwnerIndex.NAME, primaryUid)) {
            WriteTracker.Ref ref = WriteTracker.Ref.of(object);
            tracker.fresher(ref, object).ifPresent(current -> owned.put(ref, current));
        }
        for (R written : tracker.writtenOf(type)) {
            owned.putIfAbsent(WriteTracker.Ref.of(written), written);
        }
        List<R> result = new ArrayList<>();
        for (R object : owned.values()) {
            if (OwnerIndex.controllerOf(object).filter(owner -> primaryUid.equals(owner.getUid())).isPresent()) {
                result.add(object);
            }
        }
        return Collections.unmodifiableList(result);
    }

    @Override
    public <R extends HasMetadata> Optional<R> cached(Class<R> type, ObjectKey objectKey) {
        R cached = caches.get(type, objectKey).orElse(null);
        return tracker.fresher(new WriteTracker.Ref(type, objectKey.namespace(), objectKey.name()), cached);
    }

    @Override
    public <R extends HasMetadata> R apply(R desired) {
        return writes.apply(scope, desired, ApplyOptions.defaults());
    }

    @Override
    public <R extends HasMetadata> R apply(R desired, ApplyOptions options) {
        return writes.apply(scope, desired, options);
    }

    @Override
    public T applyStatus(T resource) {
        return writes.applyStatus(scope, resource);
    }

    @Override
    public CacheReader caches() {
        return caches;
    }

    @Override
    public T updateStatus(T resource) {
        return writes.updateStatus(scope, resource);
    }

    @Override
    public EventRecorder events() {
        return events;
    }

    @Override
    public Logger log() {
        return log;
    }
}
