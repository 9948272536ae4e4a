package dev.kubeloop.observation;

import dev.kubeloop.runtime.Tracing;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;

/**
 * The context of one reconcile's observation. A receiver's: its carrier offers the W3C
 * {@code traceparent} to join (the object's annotation, or a retried reconcile's), so that a
 * tracing handler continues that trace; without one, the reconcile starts a trace of its own.
 */
public final class ReconcileObservationContext extends ReceiverContext<Tracing.Reconcile> {

    public ReconcileObservationContext(Tracing.Reconcile reconcile) {
        super((carrier, key) -> "traceparent".equals(key) ? carrier.parent() : null, Kind.CONSUMER);
        setCarrier(reconcile);
        setRemoteServiceName("kubernetes");
    }

    /** What the runtime knew when the reconcile started. */
    public Tracing.Reconcile reconcile() {
        return getCarrier();
    }
}
