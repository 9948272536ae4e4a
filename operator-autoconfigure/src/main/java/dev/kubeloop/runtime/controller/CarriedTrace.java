package dev.kubeloop.runtime.controller;

import dev.kubeloop.runtime.Tracing;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the objects one reconcile applies carry of its trace with {@code kubeloop.tracing.propagate}
 * on (docs/tracing.md, "Across operators"): its W3C traceparent in the tracing annotation, so that
 * the operator that reconciles them next continues the trace (another Kubeloop operator joins it by
 * itself, as for any change carrying the annotation).
 *
 * <p>Bounded, no churn and no extra write: {@link ControllerWrites} decides whether an apply is due
 * on the body without the annotation (its fingerprint and its no-op check), so a reconcile that
 * wants what it applied before sends nothing although its traceparent differs; and an apply that is
 * sent carries a new value only when it changes the object anyway. One sent although it probably
 * changes nothing (the first of an object since the controller started, for an object that already
 * carries the whole body; the same body again, for an object it cannot see) carries the value the
 * object, or the last apply, carries already, so that the server still has nothing to change.
 *
 * <p>Only applies as the controller's own field manager carry it: an object applied under several
 * managers (an entry per primary in a shared object, {@code ApplyOptions.fieldManager}) has no one
 * trace, and its managers would take the annotation from one another. An annotation the reconciler
 * sets itself on the desired object wins: it is part of the body, as any field. An unsampled reconcile carries nothing: an apply that changes the object then drops
 * the value this field manager set before (server-side apply removes what a manager stops
 * setting), so that the operator downstream does not join a trace that did not cause the change.
 *
 * <p>Created per traced reconcile only when propagating (with tracing or propagation off there is
 * none, and an apply does no extra work); used by the reconcile's thread only. The traceparent is
 * read once, by the first apply that carries it.
 */
final class CarriedTrace {

    private final String annotation;
    private final Tracing.Span span;
    private boolean read;
    private String sampled;

    CarriedTrace(String annotation, Tracing.Span span) {
        this.annotation = annotation;
        this.span = span;
    }

    /** Whether {@code body} sets the annotation itself: the reconciler's value, never replaced. */
    boolean setBy(HasMetadata body) {
        return valueOn(body) != null;
    }

    /** The reconcile's traceparent when its span is sampled, else null. */
    String reconciles() {
        if (!read) {
            read = true;
            String traceparent = span.traceparent();
            sampled = isSampled(traceparent) ? traceparent : null;
        }
        return sampled;
    }

    /** The annotation's value on {@code object}, or null. */
    String valueOn(HasMetadata object) {
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(annotation);
    }

    /** Sets the annotation to {@code value} on {@code body}, the runtime's own copy of the desired object. */
    void put(HasMetadata body, String value) {
        Map<String, String> annotations = body.getMetadata().getAnnotations();
        Map<String, String> carrying = annotations == null ? new LinkedHashMap<>() : new LinkedHashMap<>(annotations);
        carrying.put(annotation, value);
        body.getMetadata().setAnnotations(carrying);
    }

    /** W3C trace context: {@code 00-<trace id>-<span id>-<flags>}, sampled when the flags' lowest bit is set. */
    static boolean isSampled(String traceparent) {
        if (traceparent == null || traceparent.length() < 2) {
            return false;
        }
        int flags = Character.digit(traceparent.charAt(traceparent.length() - 1), 16);
        return flags >= 0 && (flags & 1) == 1;
    }
}
