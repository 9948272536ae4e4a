package dev.kubeloop.runtime.client;

import dev.kubeloop.runtime.Tracing;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.impl.BaseClient;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each reconcile a client whose writes pass its {@link RequestFence}: the manager's client,
 * sharing its connections, executor, serialization and configuration, on an HTTP client derived
 * with the fence's interceptor and tagged with the reconcile's fence (fabric8 hands a client's tags
 * to its interceptors, on whatever thread sends the request). Deriving costs two small objects per
 * reconcile and no connection.
 *
 * <p>The clients handed out must not be closed: they share the manager's HTTP client, and closing
 * one closes it (as closing the manager's client would). A client that is not fabric8's
 * implementation (a test double) cannot be derived: its requests go out unfenced, which is logged
 * once. Stateless after construction; thread-safe.
 */
public final class FencedClients {

    private static final Logger log = LoggerFactory.getLogger(FencedClients.class);

    private final KubernetesClient client;
    /** null when requests are not fenced: no gate asks for it, or the client cannot be derived. */
    private final BaseClient base;
    private final HttpClient intercepted;
    /** null when the client cannot be derived: then requests are neither fenced nor traced. */
    private final BaseClient derivable;

    /** @param fenced whether a gate fences this replica's writes (leader election, sharding) */
    public FencedClients(KubernetesClient client, boolean fenced) {
        this.client = client;
        BaseClient derivable = client instanceof BaseClient impl ? impl : null;
        this.derivable = derivable;
        if (fenced && derivable == null) {
            log.warn("Writes are not fenced: the KubernetesClient is a {}, not fabric8's implementation, so a replica "
                    + "paused past its Lease may write after another took over", client.getClass().getName());
        }
        this.base = fenced ? derivable : null;
        this.intercepted = base == null ? null : base.getHttpClient().newBuilder()
                .addOrReplaceInterceptor(RequestFence.Check.NAME, new RequestFence.Check()).build();
    }

    /** The fence of one reconcile, opened on its thread; close it when the reconcile ends. */
    public RequestFence open(BooleanSupplier holds) {
        return new RequestFence(holds, this, null);
    }

    /**
     * The fence of one traced reconcile: its client also gives every request a child span of
     * {@code span} ({@link RequestSpans}); with a client that cannot be derived, requests are not traced.
     */
    public RequestFence open(BooleanSupplier holds, Tracing.Span span) {
        return new RequestFence(holds, this, span == null || derivable == null ? null : new RequestSpans(span));
    }

    KubernetesClient bind(RequestFence fence, RequestSpans spans) {
        if (spans != null) {
            HttpClient.DerivedClientBuilder http = (base == null ? derivable.getHttpClient() : intercepted).newBuilder();
            // after the fence's check: a refused request is never sent, so it gets no span
            return new Bound(derivable, http.tag(fence).addOrReplaceInterceptor(RequestSpans.NAME, spans).build());
        }
        if (base == null) {
            return client;
        }
        return new Bound(base, intercepted.newBuilder().tag(fence).build());
    }

    /** fabric8's client with another HTTP client; its copies ({@code inNamespace}, ...) keep that one. */
    private static final class Bound extends KubernetesClientImpl {

        Bound(BaseClient base, HttpClient http) {
            super(base);
            this.httpClient = http;
            if (getOperationContext() != null) {
                operationContext(getOperationContext().withClient(this));
            }
        }
    }
}
