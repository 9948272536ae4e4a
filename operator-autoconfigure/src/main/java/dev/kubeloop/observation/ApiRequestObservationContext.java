package dev.kubeloop.observation;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.RequestReplySenderContext;
import java.util.function.BiConsumer;

/**
 * The context of one API request's observation. A sender's: a tracing handler puts the span's
 * context into the request's headers through the carrier (fabric8's request builder), so that a
 * traced kube-apiserver continues the trace. The response is its status code.
 */
public final class ApiRequestObservationContext extends RequestReplySenderContext<BiConsumer<String, String>, Integer> {

    private final String method;
    private final String path;

    public ApiRequestObservationContext(String method, String path, BiConsumer<String, String> headers) {
        super((carrier, key, value) -> carrier.accept(key, value), Kind.CLIENT);
        this.method = method;
        this.path = path;
        setCarrier(headers);
        setRemoteServiceName("kube-apiserver");
    }

    public String method() {
        return method;
    }

    public String path() {
        return path;
    }
}
