package dev.kubeloop.runtime;

import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.TerminalException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.MDC;

/**
 * Runs one reconcile of one key, level-triggered: it reads the latest object from the cache (not
 * the event that queued the key), handles the finalizer, calls the reconciler under the reconcile
 * timeout with the MDC set, and classifies what happened as an {@link Outcome}. What to do with
 * the outcome (forget, requeue, log) is the {@link Controller}'s business.
 *
 * <p>Finalizer protocol: an object being deleted gets {@code cleanup}, and the finalizer is removed
 * only after cleanup returned done; an object not being deleted gets the finalizer first (one
 * patch) and then {@code reconcile}. An object being deleted that does not carry our finalizer is
 * left alone: nothing of ours holds it, and reconcile is never called for a deleted object.
 *
 * <p>Events: a terminal error records a Warning {@code ReconcileFailed}; an error that is a 403
 * from the API server records a Warning {@code Forbidden} saying what was refused (see
 * {@link Forbidden}), so that {@code kubectl describe} on the object shows why it is stuck.
 *
 * <p>The reconciler gets a deep copy of the cached object, so it may modify it (set status, then
 * {@code updateStatus}) without corrupting the cache that every controller shares.
 *
 * <p>Thread-safety: immutable; called concurrently by the controller's workers, never twice at
 * once for one key (the queue guarantees that).
 */
final class ReconcileRunner<T extends HasMetadata> {

    static final String MDC_CONTROLLER = "controller";
    static final String MDC_KEY = "key";
    static final String MDC_RECONCILE_ID = "reconcileID";

    private final String name;
    private final ResourceReconciler<T> reconciler;
    private final KubernetesClient client;
    private final ResourceCache<T> primaryCache;
    private final Map<Class<?>, ResourceCache<?>> ownedCaches;
    private final EventRecorder events;
    private final ReconcileTimeouts timeouts;
    private final Duration timeout;
    private final String finalizer;
    private final Logger reconcilerLog;

    ReconcileRunner(String name, ResourceReconciler<T> reconciler, KubernetesClient client,
            ResourceCache<T> primaryCache, Map<Class<?>, ResourceCache<?>> ownedCaches, EventRecorder events,
            ReconcileTimeouts timeouts, Duration timeout, String finalizer, Logger reconcilerLog) {
        this.name = name;
        this.reconciler = reconciler;
        this.client = client;
        this.primaryCache = primaryCache;
        this.ownedCaches = Map.copyOf(ownedCaches);
        this.events = events;
        this.timeouts = timeouts;
        this.timeout = timeout;
        this.finalizer = finalizer;
        this.reconcilerLog = reconcilerLog;
    }

    Outcome run(ObjectKey key, int retryCount) {
        T cached = primaryCache.get(key).orElse(null);
        if (cached == null) {
            return Outcome.GONE;
        }
        T object = ResourceCopies.deepCopy(client.getKubernetesSerialization(), cached);
        MDC.put(MDC_CONTROLLER, name);
        MDC.put(MDC_KEY, key.toString());
        MDC.put(MDC_RECONCILE_ID, ReconcileIds.next());
        Outcome outcome;
        boolean timedOut = false;
        ReconcileTimeouts.Deadline deadline = timeouts.start(timeout);
        try {
            DefaultReconcileContext<T> context = new DefaultReconcileContext<>(name, key, retryCount,
                    object.getMetadata().getUid(), client, primaryCache, ownedCaches, events, reconcilerLog);
            outcome = Outcome.of(invoke(object, context));
        } catch (TerminalException e) {
            outcome = Outcome.terminal(e);
        } catch (Throwable e) { // a worker must survive anything the reconciler throws
            outcome = Conflicts.isConflict(e) ? Outcome.conflict(e) : Outcome.failed(e);
        } finally {
            timedOut = deadline.finish();
            MDC.remove(MDC_CONTROLLER);
            MDC.remove(MDC_KEY);
            MDC.remove(MDC_RECONCILE_ID);
        }
        if (timedOut) {
            // whatever the call returned or threw, it was cut short
            return Outcome.timeout(outcome.error());
        }
        if (outcome.kind() == ReconcileOutcome.TERMINAL_ERROR) {
            events.warning(object, "ReconcileFailed", String.valueOf(outcome.error().getMessage()));
        } else if (outcome.kind() == ReconcileOutcome.ERROR) {
            // on every retry: identical Events aggregate into one, whose count and last time show it lasts
            Forbidden.in(outcome.error())
                    .ifPresent(forbidden -> events.warning(object, Forbidden.EVENT_REASON, forbidden.describe()));
        }
        return outcome;
    }

    private Result invoke(T object, ReconcileContext<T> context) throws Exception {
        if (object.isMarkedForDeletion()) {
            if (finalizer == null || !Finalizers.has(object, finalizer)) {
                return Result.done();
            }
            Result result = reconciler.cleanup(object, context);
            if (result != null && result.kind() == Result.Kind.DONE) {
                Finalizers.remove(client, object, finalizer);
            }
            return result;
        }
        T current = object;
        if (finalizer != null && !Finalizers.has(object, finalizer)) {
            current = Finalizers.add(client, object, finalizer);
        }
        return reconciler.reconcile(current, context);
    }
}
