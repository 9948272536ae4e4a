package dev.kubeloop.health;

import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerStatus;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.LeadershipState;
import dev.kubeloop.runtime.manager.ShardingState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The {@code kubeloop} health contributor: whether the operator can do its job right now, with
 * one entry per controller (its caches' sync state and size, its workers). The auto-configuration
 * adds it to the readiness group, so a replica takes no traffic until every cache has synced.
 *
 * <ul>
 *   <li><b>DOWN</b>: the runtime is broken: the manager failed to start, a worker thread died, or
 *       an informer stopped for good after an error.
 *   <li><b>OUT_OF_SERVICE</b>: not started yet, caches still syncing, or stopped.
 *   <li><b>UP</b>: running, every cache synced, every worker alive.
 * </ul>
 * A slow or failing reconcile never makes it DOWN: that is what metrics and the introspection
 * endpoint are for, and a probe that failed on it would get the pod restarted in a loop. Nor does
 * an informer whose list/watch fails while fabric8 retries (an API server outage, a deleted CRD):
 * every replica shares the API server, so all would turn unready at once, emptying the webhook
 * Service when it is needed, and readiness restarts nothing; the informer's details say since when
 * and why, and the metrics count it (controller-runtime's readiness, too, follows the cache sync only). The
 * liveness probe does not include this contributor; the runtime marks liveness broken itself when
 * it breaks (see {@code KubeloopAvailability} in the auto-configuration).
 *
 * <p>Thread-safe: it only reads the manager's snapshots.
 */
public final class KubeloopHealthIndicator implements HealthIndicator {

    private final ControllerManager manager;

    public KubeloopHealthIndicator(ControllerManager manager) {
        this.manager = Objects.requireNonNull(manager, "manager");
    }

    /** The leadership details: a standby is healthy and ready, and says so here. */
    static Map<String, Object> leadership(LeadershipState leadership) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("enabled", leadership.enabled());
        details.put("role", leadership.role().name());
        if (leadership.enabled()) {
            details.put("lease", leadership.leaseNamespace() + "/" + leadership.leaseName());
            details.put("identity", leadership.identity());
            if (leadership.holder() != null) {
                details.put("holder", leadership.holder());
            }
            if (leadership.since() != null) {
                details.put("since", leadership.since().toString());
            }
        }
        return details;
    }

    @Override
    public Health health() {
        ControllerManager.State state = manager.state();
        Map<String, Object> controllers = new LinkedHashMap<>();
        boolean broken = false;
        boolean synced = true;
        for (Controller<?> controller : manager.controllers()) {
            ControllerStatus status = controller.status();
            broken |= status.broken();
            synced &= status.synced();
            controllers.put(controller.name(), describe(status, state));
        }
        LeadershipState leadership = manager.leadership();
        Status overall;
        if (state == ControllerManager.State.FAILED || broken || leadership.role() == LeadershipState.Role.LOST) {
            overall = Status.DOWN;
        } else if (state == ControllerManager.State.RUNNING && synced
                && manager.sharding().map(ShardingState::inRing).orElse(true)) {
            overall = Status.UP;
        } else {
            overall = Status.OUT_OF_SERVICE;
        }
        Health.Builder health = Health.status(overall).withDetail("state", state.name());
        manager.failure().ifPresent(error -> health.withDetail("error", error.toString()));
        health.withDetail("leadership", leadership(leadership));
        // a sharded replica out of the ring (joining, or fenced) reconciles nothing: not ready, says so here
        manager.sharding().ifPresent(sharding -> health.withDetail("sharding", sharding.describe()));
        return health.withDetail("controllers", controllers).build();
    }

    private static Map<String, Object> describe(ControllerStatus status, ControllerManager.State state) {
        Map<String, Object> details = new LinkedHashMap<>();
        String code;
        if (status.broken()) {
            code = Status.DOWN.getCode();
        } else if (status.synced() && status.started() && state == ControllerManager.State.RUNNING) {
            code = Status.UP.getCode();
        } else {
            code = Status.OUT_OF_SERVICE.getCode();
        }
        details.put("status", code);
        details.put("synced", status.synced());
        Map<String, Object> workers = new LinkedHashMap<>();
        workers.put("max", status.maxWorkers());
        workers.put("active", status.activeWorkers());
        workers.put("alive", status.aliveWorkers());
        if (status.workerFailure() != null) {
            workers.put("failure", status.workerFailure());
        }
        details.put("workers", workers);
        List<Map<String, Object>> informers = new ArrayList<>();
        for (InformerStatus informer : status.informers()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("informer", informer.describe());
            entry.put("synced", informer.synced());
            if (informer.waiting()) {
                // an optional type that is not served: its absence holds nothing back, but say so
                entry.put("waiting", "for " + informer.resource() + " to be served (optional)");
            }
            entry.put("watching", informer.watching());
            if (informer.listWatchFailing()) {
                // fabric8 retries; readiness stays as it is (docs/operations.md says why), the details say it
                entry.put("listWatchFailingSince", informer.listWatchFailingSince().toString());
                entry.put("listWatchFailure", informer.listWatchFailure());
            }
            entry.put("cachedObjects", informer.cachedObjects());
            if (informer.failed()) {
                entry.put("failure", informer.failure());
            }
            informers.add(entry);
        }
        details.put("informers", informers);
        return details;
    }
}
