package dev.kubeloop.observation;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;

/**
 * The context of one webhook request's observation: a server's, whose carrier is the request's
 * {@code traceparent} header, so that a tracing handler continues the API server's trace.
 */
public final class WebhookObservationContext extends ReceiverContext<String> {

    private final String path;

    public WebhookObservationContext(String path, String traceparent) {
        super((carrier, key) -> "traceparent".equals(key) ? carrier : null, Kind.SERVER);
        this.path = path;
        setCarrier(traceparent);
        setRemoteServiceName("kube-apiserver");
    }

    public String path() {
        return path;
    }
}
