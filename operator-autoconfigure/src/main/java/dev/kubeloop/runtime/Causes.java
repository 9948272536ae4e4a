package dev.kubeloop.runtime;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Walks an exception's cause chain: the one walk the runtime, the webhook server and the
 * policies share (what failed is often wrapped: fabric8 wraps the API server's answer, Jackson's
 * mapping errors come wrapped in the client's). A chain that loops back on itself ends where it
 * would repeat. ({@code dev.kubeloop.api.ApiRefusal} keeps its own walk: the API depends on
 * nothing of the runtime.) Stateless.
 */
public final class Causes {

    private Causes() {
    }

    /** {@code error} and its causes, outermost first; empty for null. */
    public static List<Throwable> chain(Throwable error) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = error; cause != null && seen.add(cause); cause = cause.getCause()) {
            chain.add(cause);
        }
        return chain;
    }

    /** The outermost cause of type {@code type}, {@code error} itself included. */
    public static <E extends Throwable> Optional<E> find(Throwable error, Class<E> type) {
        return chain(error).stream().filter(type::isInstance).map(type::cast).findFirst();
    }

    /** The outermost API error with HTTP status {@code code} in the chain. */
    public static Optional<KubernetesClientException> status(Throwable error, int code) {
        return chain(error).stream().filter(cause -> cause instanceof KubernetesClientException e
                && e.getCode() == code).map(KubernetesClientException.class::cast).findFirst();
    }
}
