package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ApplyOptions;
import dev.kubeloop.api.CacheReader;
import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The {@link ReconcileContext} of one reconcile call. Every read goes to the controller's caches as
 * its own writes left them ({@link ReadYourWritesReader}): {@link #cached}, {@link #owned} (by the
 * owner index) and {@link #caches()} alike; each read is noted in the reconcile's
 * {@link StatusBasis}, which tells whether a status it wrote may be out of date.
 *
 * <p>Created per call by the worker thread and meant to be used by it; holds no mutable state.
 */
final class DefaultReconcileContext<T extends HasMetadata> implements ReconcileContext<T> {

    private final String controllerName;
    private final ObjectKey key;
    private final int retryCount;
    private final String primaryUid;
    private final KubernetesClient client;
    private final ReadYourWritesReader reads;
    private final Set<Class<?>> ownedTypes;
    private final EventRecorder events;
    private final Logger log;
    private final ControllerWrites writes;
    private final ControllerWrites.Scope scope;

    DefaultReconcileContext(String controllerName, ObjectKey key, int retryCount, String primaryUid,
            KubernetesClient client, ReadYourWritesReader reads, Set<Class<?>> ownedTypes, EventRecorder events,
            Logger log, ControllerWrites writes, ControllerWrites.Scope scope) {
        this.controllerName = controllerName;
        this.key = key;
        this.retryCount = retryCount;
        this.primaryUid = primaryUid;
        this.client = client;
        this.reads = reads;
        this.ownedTypes = ownedTypes;
        this.events = events;
        this.log = log;
        this.writes = writes;
        this.scope = scope;
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
        scope.statusBasis().readOwned(type);
        return Collections.unmodifiableList(reads.owned(type, primaryUid));
    }

    @Override
    public <R extends HasMetadata> Optional<R> cached(Class<R> type, ObjectKey objectKey) {
        scope.statusBasis().readOne(type, objectKey);
        return reads.get(type, objectKey);
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
    public boolean delete(HasMetadata object) {
        return writes.delete(scope, object);
    }

    @Override
    public T applyStatus(T resource) {
        return writes.applyStatus(scope, resource);
    }

    @Override
    public CacheReader caches() {
        return new CacheReader() {
            // each read noted in the reconcile's scope, which tells whether a status may be out of date
            @Override
            public <R extends HasMetadata> Optional<R> get(Class<R> type, ObjectKey objectKey) {
                return cached(type, objectKey);
            }

            @Override
            public <R extends HasMetadata> List<R> list(Class<R> type, @Nullable String namespace) {
                scope.statusBasis().readAny(type);
                return reads.list(type, namespace);
            }

            @Override
            public <R extends HasMetadata> List<R> list(Class<R> type, @Nullable String namespace,
                    Map<String, String> labels) {
                scope.statusBasis().readAny(type);
                return reads.list(type, namespace, labels);
            }

            @Override
            public <R extends HasMetadata> List<R> byIndex(Class<R> type, String index, @Nullable String namespace,
                    String value) {
                scope.statusBasis().readAny(type);
                return reads.byIndex(type, index, namespace, value);
            }
        };
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
