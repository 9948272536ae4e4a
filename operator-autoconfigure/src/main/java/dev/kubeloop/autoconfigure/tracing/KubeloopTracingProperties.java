package dev.kubeloop.autoconfigure.tracing;

import dev.kubeloop.runtime.Settings;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code kubeloop.tracing.*}: tracing of reconciles, their API requests and webhook requests
 * (docs/tracing.md). Tracing itself is switched on the Spring Boot way, by a tracing bridge and an
 * exporter on the class path and {@code management.tracing.sampling.probability}; these properties
 * only say what Kubeloop does with it.
 */
@ConfigurationProperties(prefix = "kubeloop.tracing")
public class KubeloopTracingProperties {

    /**
     * Whether Kubeloop observes reconciles, API requests and webhook requests when the application
     * has an ObservationRegistry. Off, the runtime traces nothing and costs nothing per key.
     */
    private boolean enabled = Settings.TRACING_ENABLED.defaultValue();

    /**
     * The annotation whose W3C traceparent a reconcile of the object's own change joins: a client or
     * another operator writes it to connect its trace with the reconcile that follows.
     */
    private String annotation = Settings.TRACING_ANNOTATION.defaultValue();

    /**
     * Whether the objects a sampled reconcile applies carry its W3C traceparent in the annotation, so
     * that the operator reconciling them next continues the trace. Bounded: it never makes an apply
     * due, and only an apply that changes the object anyway carries a new value.
     */
    private boolean propagate = Settings.TRACING_PROPAGATE.defaultValue();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getAnnotation() {
        return annotation;
    }

    public void setAnnotation(String annotation) {
        this.annotation = annotation;
    }

    public boolean isPropagate() {
        return propagate;
    }

    public void setPropagate(boolean propagate) {
        this.propagate = propagate;
    }
}
