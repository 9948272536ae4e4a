package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.conditions.ConditionStatus;
import dev.kubeloop.api.conditions.Conditions;
import dev.kubeloop.runtime.client.ResourceCopies;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status writes the runtime makes about a key's failures, through the failed reconcile's own
 * status write ({@link ControllerWrites#applyStatus}: server-side apply on {@code /status}, locked
 * on the version the reconcile knew, skipped when nothing changes):
 *
 * <ul>
 *   <li>the reconciler's {@link ResourceReconciler#errorStatus}, once per distinct error
 *       ({@link FailingKeys#report});
 *   <li>the condition {@value #STALLED} {@code True} (reason {@value #RETRIES_EXHAUSTED}) when the
 *       key runs out of attempts, and {@code False} (reason {@value #RECOVERED}) at the next
 *       reconcile that does not fail, if the status has conditions ({@link StatusConditions}).
 * </ul>
 *
 * None of them changes how the reconcile ended: a write that fails is logged at WARN (a 409 at
 * DEBUG: a newer object is on its way) and tried again at the next failure.
 *
 * <p>Stateless apart from {@link FailingKeys}; called by the worker holding the key.
 */
final class FailureStatus<T extends HasMetadata> {

    /** The condition type the runtime owns: kstatus' "no progress without intervention". */
    static final String STALLED = "Stalled";
    /** The Stalled condition's reason, and the Warning event's, when a key runs out of attempts. */
    static final String RETRIES_EXHAUSTED = "RetriesExhausted";
    /** The Stalled condition's reason when a reconcile succeeds again. */
    static final String RECOVERED = "Recovered";

    private static final int MAX_ERROR_TEXT = 800;

    // the controller's logger, like every other line about a reconcile
    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final String controller;
    private final ResourceReconciler<T> reconciler;
    private final ControllerWrites writes;
    private final KubernetesSerialization serialization;
    private final FailingKeys keys;

    FailureStatus(String controller, ResourceReconciler<T> reconciler, ControllerWrites writes,
            KubernetesSerialization serialization, FailingKeys keys) {
        this.controller = controller;
        this.reconciler = reconciler;
        this.writes = writes;
        this.serialization = serialization;
        this.keys = keys;
    }

    /** The reconcile of {@code key} threw {@code error}: the reconciler's error status, if this error is news. */
    void failed(ObjectKey key, ControllerWrites.Scope scope, ReconcileContext<T> context, Exception error) {
        Long generation = scope.primary().getMetadata().getGeneration();
        String fingerprint = error.getClass().getName() + "\u0000" + error.getMessage() + "\u0000" + generation;
        if (!keys.report(key, fingerprint)) {
            return;
        }
        try {
            Optional<T> status = reconciler.errorStatus(copy(scope), context, error);
            if (status != null && status.isPresent()) {
                writes.applyStatus(scope, status.get());
            }
        } catch (Exception e) {
            keys.unreported(key, fingerprint);
            warn("the reconciler's error status", key, e);
        }
    }

    /** {@code key} failed {@code attempts} times in a row and rests: {@value #STALLED} True, if the status has conditions. */
    void exhausted(ObjectKey key, ControllerWrites.Scope scope, int attempts, Throwable error) {
        setStalled(key, scope, ConditionStatus.TRUE, RETRIES_EXHAUSTED, message(attempts, error));
    }

    /** A reconcile of {@code key} did not fail: {@value #STALLED} False, if it said True. */
    void succeeded(ObjectKey key, ControllerWrites.Scope scope) {
        Optional<List<Condition>> conditions = StatusConditions.of(serialization, scope.primary());
        if (conditions.isPresent() && Conditions.isTrue(conditions.get(), STALLED)) {
            setStalled(key, scope, ConditionStatus.FALSE, RECOVERED, "Reconciled successfully");
        }
    }

    /** The Warning event's and the condition's message. */
    static String message(int attempts, Throwable error) {
        String last = String.valueOf(error);
        // an Event's message is cut by the API server at 1 kB; a condition's allows 32 kB, but no one reads that much
        if (last.length() > MAX_ERROR_TEXT) {
            last = last.substring(0, MAX_ERROR_TEXT) + "...";
        }
        return "Reconcile failed " + attempts + " times in a row; no more retries until the object changes. Last "
                + "error: " + last;
    }

    private void setStalled(ObjectKey key, ControllerWrites.Scope scope, ConditionStatus status, String reason,
            String message) {
        T copy = copy(scope);
        Optional<List<Condition>> conditions = StatusConditions.of(serialization, copy);
        if (conditions.isEmpty()) {
            return;
        }
        try {
            if (Conditions.set(conditions.get(), STALLED, status, reason, message,
                    copy.getMetadata().getGeneration())) {
                writes.applyStatus(scope, copy);
            }
        } catch (RuntimeException e) {
            warn("the " + STALLED + " condition", key, e);
        }
    }

    @SuppressWarnings("unchecked")
    private T copy(ControllerWrites.Scope scope) {
        return (T) ResourceCopies.deepCopy(serialization, scope.primary());
    }

    private void warn(String what, ObjectKey key, Exception e) {
        if (ReconcileOutcome.of(e) == ReconcileOutcome.CONFLICT) {
            log.debug("Writing {} conflicted, a newer object is on its way: controller={} key={}", what, controller,
                    key);
        } else {
            log.warn("Writing {} failed: controller={} key={}: {}", what, controller, key, e.toString());
        }
    }
}
