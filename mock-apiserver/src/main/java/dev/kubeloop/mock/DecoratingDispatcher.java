package dev.kubeloop.mock;

import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.CustomResourceAware;
import io.fabric8.kubernetes.client.server.mock.Resetable;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.Map;
import java.util.Objects;

/**
 * A dispatcher that answers some requests itself and hands the rest to the mock's own dispatcher:
 * the mock's lifecycle calls (reset, custom resources, shutdown) go to that delegate, and failures
 * are answered as the API server does, with a {@code Status}.
 */
public abstract class DecoratingDispatcher extends Dispatcher implements Resetable, CustomResourceAware {

    protected final Dispatcher delegate;

    protected DecoratingDispatcher(Dispatcher delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** A {@code Status} failure as the API server sends it. */
    static MockResponse failure(KubernetesSerialization serialization, int code, String reason, String message) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody(serialization.asJson(Map.of("apiVersion", "v1", "kind", "Status", "status", "Failure",
                        "reason", reason, "message", message, "code", code)));
    }

    /** A request the dispatcher makes of its delegate itself (a read before a write, say); {@code body} may be null. */
    static RecordedRequest request(HttpMethod method, String path, String contentType, String body) {
        Headers.Builder headers = Headers.builder();
        if (contentType != null) {
            headers.add("Content-Type", contentType);
        }
        Buffer buffer = new Buffer();
        if (body != null) {
            buffer.writeUtf8(body);
        }
        return new RecordedRequest("HTTP/1.1", method, path, headers.build(), buffer);
    }

    @Override
    public void reset() {
        if (delegate instanceof Resetable resetable) {
            resetable.reset();
        }
    }

    @Override
    public void expectCustomResource(CustomResourceDefinitionContext context) {
        if (delegate instanceof CustomResourceAware aware) {
            aware.expectCustomResource(context);
        }
    }

    @Override
    public void shutdown() {
        delegate.shutdown();
    }

    @Override
    public void releaseResources() {
        delegate.releaseResources();
    }
}
