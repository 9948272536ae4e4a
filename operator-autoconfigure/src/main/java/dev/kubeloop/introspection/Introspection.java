package dev.kubeloop.introspection;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ControllerStatus;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.controller.WriteOperation;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.LeadershipState;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every controller of a manager is doing right now, as plain maps, lists, strings and
 * numbers ready to be written as JSON: the manager's state and leadership, and per controller its
 * resource type and scope, workers (active, max, alive), queue depth by priority, keys in flight
 * with their age, the last errors (key, message, time, attempt), the time of the last successful
 * reconcile, reconcile counts by outcome, and its informers' sync state and cache size. Also
 * queues a reconcile on request.
 *
 * <p>The implementation behind {@code /actuator/kubeloop}; free of Spring, so that any other
 * surface (a CLI, a test) can show the same. Thread-safe: reads snapshots, enqueues through the
 * thread-safe queue.
 */
public final class Introspection {

    private static final Logger log = LoggerFactory.getLogger(Introspection.class);

    private final ControllerManager manager;

    public Introspection(ControllerManager manager) {
        this.manager = manager;
    }

    /** The manager and every controller. */
    public Map<String, Object> manager() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("state", manager.state().name());
        body.put("synced", manager.hasSynced());
        manager.failure().ifPresent(error -> body.put("error", error.toString()));
        LeadershipState leadership = manager.leadership();
        Map<String, Object> lease = new LinkedHashMap<>();
        lease.put("leaderElection", leadership.enabled());
        lease.put("leader", leadership.isLeader());
        lease.put("role", leadership.role().name());
        lease.put("workersRunning", manager.workersRunning());
        if (leadership.enabled()) {
            lease.put("lease", leadership.leaseNamespace() + "/" + leadership.leaseName());
            lease.put("identity", leadership.identity());
            lease.put("holder", leadership.holder());
            lease.put("since", leadership.since() == null ? null : leadership.since().toString());
        }
        body.put("leadership", lease);
        manager.sharding().ifPresent(sharding -> body.put("sharding", sharding.describe()));
        Map<String, Object> controllers = new LinkedHashMap<>();
        for (Controller<?> controller : manager.controllers()) {
            controllers.put(controller.name(), describe(controller));
        }
        body.put("controllers", controllers);
        return body;
    }

    /** One controller, if there is one of that name. */
    public Optional<Map<String, Object>> controller(String name) {
        return manager.controller(name).map(Introspection::describe);
    }

    /** The controllers' names, in registration order. */
    public List<String> controllerNames() {
        return manager.controllers().stream().map(Controller::name).toList();
    }

    /** What came of a request to queue a reconcile. */
    public enum Enqueued {
        /** The key was queued. */
        QUEUED,
        /** No controller has that name. */
        NO_SUCH_CONTROLLER,
        /** The controller does not reconcile that key: not in a namespace it watches, or not in its cache. */
        NOT_RECONCILED,
        /** The controller is shutting down and took nothing. */
        SHUTTING_DOWN
    }

    /**
     * Queues a reconcile of {@code key} on {@code controller}, as if the object had changed.
     *
     * @param key {@code namespace/name}, or {@code name} for a cluster-scoped primary type
     * @throws IllegalArgumentException if {@code key} is not a key of the controller's type (see {@link #parseKey})
     */
    public Enqueued enqueue(String controller, String key) {
        Optional<Controller<?>> found = manager.controller(controller);
        if (found.isEmpty()) {
            return Enqueued.NO_SUCH_CONTROLLER;
        }
        Controller<?> target = found.get();
        ObjectKey objectKey = parseKey(key, Namespaced.class.isAssignableFrom(target.config().primaryType()));
        if (!target.reconciles(objectKey)) {
            return Enqueued.NOT_RECONCILED;
        }
        if (!target.enqueue(objectKey)) {
            return Enqueued.SHUTTING_DOWN;
        }
        log.info("Reconcile requested through introspection: controller={} key={}", controller, objectKey);
        return Enqueued.QUEUED;
    }

    /**
     * Reads a key as a user types it: {@code namespace/name}, or {@code name} for a cluster-scoped type.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static ObjectKey parseKey(String key, boolean namespaced) {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException("key is required: namespace/name, or name for a cluster-scoped type");
        }
        String trimmed = key.trim();
        int slash = trimmed.indexOf('/');
        if (slash != trimmed.lastIndexOf('/') || slash == 0 || slash == trimmed.length() - 1) {
            throw new IllegalArgumentException("'" + key + "' is not a key: use namespace/name, or name for a "
                    + "cluster-scoped type");
        }
        if (namespaced && slash < 0) {
            throw new IllegalArgumentException("'" + key + "' has no namespace, but the controller's type is "
                    + "namespaced: use namespace/name");
        }
        if (!namespaced && slash >= 0) {
            throw new IllegalArgumentException("'" + key + "' has a namespace, but the controller's type is "
                    + "cluster-scoped: use its name");
        }
        return slash < 0 ? ObjectKey.clusterScoped(trimmed)
                : ObjectKey.of(trimmed.substring(0, slash), trimmed.substring(slash + 1));
    }

    private static Map<String, Object> describe(Controller<?> controller) {
        ControllerConfig<?> config = controller.config();
        ControllerStatus status = controller.status();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("resource", resource(config.primaryType()));
        Map<String, Object> scope = new LinkedHashMap<>();
        boolean namespaced = Namespaced.class.isAssignableFrom(config.primaryType());
        scope.put("namespaced", namespaced);
        scope.put("namespaces", namespaced && !config.namespaces().isEmpty() ? List.copyOf(config.namespaces())
                : "all");
        scope.put("labelSelector", config.labelSelector());
        body.put("scope", scope);
        body.put("owns", config.owns().stream().map(type -> {
            Map<String, Object> owned = resource(type);
            owned.put("labelSelector", config.ownedLabelSelector(type)); // empty: the kind cached whole
            return owned;
        }).toList());
        body.put("watches", config.declarations().watches().stream().map(Introspection::watch).toList());
        body.put("optional", config.declarations().optionalPrimary());
        body.put("started", status.started());

        Map<String, Object> workers = new LinkedHashMap<>();
        workers.put("active", status.activeWorkers());
        workers.put("max", status.maxWorkers());
        workers.put("alive", status.aliveWorkers());
        workers.put("failure", status.workerFailure());
        body.put("workers", workers);

        Map<String, Object> queue = new LinkedHashMap<>();
        queue.put("depth", status.queue().depth());
        // the runtime's two priorities always, highest first, and any other that holds items
        Map<Integer, Integer> depths = new TreeMap<>(Comparator.reverseOrder());
        depths.put(WorkQueue.NORMAL_PRIORITY, 0);
        depths.put(WorkQueue.LOW_PRIORITY, 0);
        depths.putAll(status.queue().depthByPriority());
        Map<String, Object> byPriority = new LinkedHashMap<>();
        depths.forEach((priority, depth) -> byPriority.put(priority.toString(), depth));
        queue.put("depthByPriority", byPriority);
        queue.put("waiting", status.queue().waiting());
        queue.put("processing", status.queue().processing());
        queue.put("unfinishedWorkSeconds", status.queue().unfinishedWorkSeconds());
        queue.put("longestRunningProcessorSeconds", status.queue().longestRunningProcessorSeconds());
        body.put("queue", queue);

        List<Map<String, Object>> inFlight = new ArrayList<>();
        for (ControllerStatus.InFlight running : status.inFlight()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("key", running.key().toString());
            entry.put("since", time(running.since()));
            entry.put("ageSeconds", running.age().toNanos() / 1e9);
            inFlight.add(entry);
        }
        body.put("inFlight", inFlight);

        List<Map<String, Object>> errors = new ArrayList<>();
        for (ControllerStatus.RecentError error : status.recentErrors()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("key", error.key().toString());
            entry.put("outcome", error.outcome().name().toLowerCase(Locale.ROOT));
            entry.put("error", error.error());
            entry.put("message", error.message());
            entry.put("time", time(error.time()));
            entry.put("attempt", error.attempt());
            errors.add(entry);
        }
        body.put("lastErrors", errors);
        body.put("lastSuccess", time(status.lastSuccess()));

        Map<String, Object> outcomes = new LinkedHashMap<>();
        for (ReconcileOutcome outcome : ReconcileOutcome.values()) {
            outcomes.put(outcome.name().toLowerCase(Locale.ROOT), status.outcomes().getOrDefault(outcome, 0L));
        }
        body.put("reconciles", outcomes);
        body.put("writes", writes(status.writes()));

        List<Map<String, Object>> informers = new ArrayList<>();
        for (InformerStatus informer : status.informers()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("resource", informer.resource());
            entry.put("namespace", informer.namespace() == null ? "all" : informer.namespace());
            entry.put("labelSelector", informer.labelSelector());
            entry.put("fieldSelector", informer.fieldSelector());
            entry.put("metadataOnly", informer.metadataOnly());
            entry.put("optional", informer.optional());
            entry.put("waiting", informer.waiting());
            entry.put("synced", informer.synced());
            entry.put("watching", informer.watching());
            entry.put("cachedObjects", informer.cachedObjects());
            entry.put("watchRestarts", informer.watchRestarts());
            entry.put("failure", informer.failure());
            entry.put("listWatchFailingSince",
                    informer.listWatchFailing() ? informer.listWatchFailingSince().toString() : null);
            entry.put("listWatchFailure", informer.listWatchFailure());
            entry.put("listWatchFailures", informer.listWatchFailures());
            informers.add(entry);
        }
        body.put("informers", informers);
        return body;
    }

    /** The writes and read-your-writes of one controller: what was sent, skipped, and how stale the caches were. */
    private static Map<String, Object> writes(ControllerStatus.Writes writes) {
        Map<String, Object> body = new LinkedHashMap<>();
        Map<String, Object> sent = new LinkedHashMap<>();
        Map<String, Object> skipped = new LinkedHashMap<>();
        for (WriteOperation operation : WriteOperation.values()) {
            sent.put(operation.label(), writes.sent().getOrDefault(operation, 0L));
            skipped.put(operation.label(), writes.skipped().getOrDefault(operation, 0L));
        }
        body.put("sent", sent);
        body.put("skipped", skipped);
        Map<String, Object> readYourWrites = new LinkedHashMap<>();
        readYourWrites.put("staleReadsAvoided", writes.staleReadsAvoided());
        readYourWrites.put("staleReadsNotAvoided", writes.staleReadsNotAvoided());
        readYourWrites.put("pendingWrites", writes.pending());
        readYourWrites.put("cacheCatchUps", writes.cacheCatchUps());
        readYourWrites.put("lastCacheLagSeconds", writes.lastCacheLag().toNanos() / 1e9);
        readYourWrites.put("maxCacheLagSeconds", writes.maxCacheLag().toNanos() / 1e9);
        body.put("readYourWrites", readYourWrites);
        return body;
    }

    private static Map<String, Object> watch(Watch<?> watch) {
        Map<String, Object> body = new LinkedHashMap<>(resource(watch.type()));
        body.put("scope", watch.scope() == Watch.Scope.NAMESPACES ? watch.namespaces()
                : watch.scope().name().toLowerCase(Locale.ROOT));
        body.put("labelSelector", watch.labelSelector());
        body.put("fieldSelector", watch.fieldSelector());
        body.put("metadataOnly", watch.isMetadataOnly());
        body.put("optional", watch.isOptional());
        return body;
    }

    private static Map<String, Object> resource(Class<? extends HasMetadata> type) {
        Map<String, Object> resource = new LinkedHashMap<>();
        String group = HasMetadata.getGroup(type);
        resource.put("group", group == null ? "" : group);
        resource.put("version", HasMetadata.getVersion(type));
        resource.put("kind", HasMetadata.getKind(type));
        resource.put("name", HasMetadata.getFullResourceName(type));
        return resource;
    }

    private static String time(Instant instant) {
        return instant == null ? null : instant.toString();
    }

}
