package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.runtime.Tracing;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Locale;
import java.util.Map;

/**
 * Starts a reconcile's span from what the runtime knows when a worker takes the key: the queue's
 * cause ({@link QueueCauses}) and the trace to join. Which trace a reconcile joins (docs/tracing.md,
 * "Across operators"):
 * <ul>
 *   <li>the object's own change, when the object carries a traceparent in {@link Tracing#annotation()}:
 *       that trace (the writer's: a client, a CI job, another operator's reconcile);
 *   <li>a retry: the trace of the reconcile that failed, so that a change and its retries read as
 *       one trace;
 *   <li>anything else (a requeue after a delay, a resync, an owned or watched object's change, a
 *       trigger): a trace of its own. A periodic requeue never joins the annotation's trace, or
 *       that trace would grow with every period for as long as the object lives.
 * </ul>
 * Stateless.
 */
final class ReconcileSpans {

    private ReconcileSpans() {
    }

    static Tracing.Span start(Tracing tracing, QueueCauses causes, String controller, ObjectKey key,
            HasMetadata object, int priority, int retries) {
        QueueCauses.Cause cause = causes.take(key);
        String parent = cause.parent();
        if ("change".equals(cause.what()) && object != null) {
            Map<String, String> annotations = object.getMetadata().getAnnotations();
            parent = annotations == null ? null : annotations.get(tracing.annotation());
        }
        long waited = cause == QueueCauses.UNKNOWN ? 0 : Math.max(0, System.nanoTime() - cause.dueNanos());
        return tracing.reconcile(new Tracing.Reconcile(controller, key, object, priority, retries + 1, cause.what(),
                cause.describeObject(), waited, parent));
    }

    /** The outcome's name in spans: {@code success}, {@code requeue_after}, {@code error}, ... */
    static String outcome(ReconcileOutcome outcome) {
        return outcome.name().toLowerCase(Locale.ROOT);
    }
}
