package dev.kubeloop.runtime.client;

import dev.kubeloop.runtime.Tracing;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The interceptor that gives every API request of one traced reconcile its own child span, with the
 * span's context in the request's headers (a traced kube-apiserver continues the trace). Only the
 * reconcile's client carries it (see {@link FencedClients}), so only the reconcile's requests
 * become its children; requests through other clients are not traced here.
 *
 * <p>Why three callbacks: fabric8 hands {@code before} the request as the previous interceptor
 * left it, but {@code consumer} and {@code after} the request as sent, one object; {@code before}
 * and {@code consumer} run one after the other on the sending thread, so the span passes from one
 * to the other through a thread-local and is then found by the sent request's identity when its
 * response arrives on the HTTP client's thread. fabric8 reports a connection failure with the
 * request as it was before the interceptors, so a span without response is ended by {@link #close}
 * when the reconcile ends ({@code no-response}).
 *
 * <p>State ownership: {@code inFlight} is a concurrent map (identity keys: fabric8's requests do not
 * override {@code equals}) written by the sending threads and emptied by the response threads and
 * {@link #close}; {@link #HANDOFF} is confined to one sending thread between two calls.
 */
final class RequestSpans implements Interceptor {

    static final String NAME = "kubeloop-request-spans";
    private static final ThreadLocal<Tracing.Request> HANDOFF = new ThreadLocal<>();

    private final Tracing.Span parent;
    private final Map<HttpRequest, Tracing.Request> inFlight = new ConcurrentHashMap<>();

    RequestSpans(Tracing.Span parent) {
        this.parent = parent;
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        HANDOFF.set(parent.request(request.method(), request.uri().getRawPath(), builder::setHeader));
    }

    @Override
    public AsyncBody.Consumer<List<ByteBuffer>> consumer(AsyncBody.Consumer<List<ByteBuffer>> consumer,
            HttpRequest sent) {
        Tracing.Request span = HANDOFF.get();
        if (span != null) {
            HANDOFF.remove();
            inFlight.put(sent, span);
        }
        return consumer;
    }

    @Override
    public void after(HttpRequest sent, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        Tracing.Request span = inFlight.remove(sent);
        if (span != null) {
            span.response(response.code());
        }
    }

    /** The reconcile ended: requests still without a response end their spans now. */
    void close() {
        HANDOFF.remove();
        inFlight.values().removeIf(span -> {
            span.failed(null);
            return true;
        });
    }
}
