package dev.kubeloop.runtime;

import dev.kubeloop.api.ObjectKey;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.function.BiConsumer;

/**
 * The runtime's seam for tracing: what a reconcile, its API requests and its writes tell a tracer.
 * The runtime imports no Micrometer (see {@code LayeringTest}); {@code dev.kubeloop.observation}
 * implements this with the Micrometer Observation API, and the names and attributes it records are
 * the contract of docs/tracing.md.
 *
 * <p>{@link #OFF} is the default. With it the runtime creates nothing per key: the controller
 * checks {@link #on()} once per reconcile and takes no other branch (no cause bookkeeping, no
 * derived client, no span), so "off" costs one field read.
 *
 * <p>Implementations are thread-safe; a {@link Span} is used by one reconcile, whose requests may
 * end on fabric8's threads.
 */
public interface Tracing {

    /** No tracing: {@link #on()} is false and nothing else is called. */
    Tracing OFF = new Tracing() {
        @Override
        public boolean on() {
            return false;
        }

        @Override
        public Span reconcile(Reconcile reconcile) {
            throw new IllegalStateException("tracing is off");
        }

        @Override
        public Span webhook(String path, String traceparent) {
            throw new IllegalStateException("tracing is off");
        }
    };

    /** The annotation a client or another operator writes a W3C traceparent into (docs/tracing.md). */
    String DEFAULT_ANNOTATION = "kubeloop.dev/traceparent";

    /** Whether reconciles are traced at all; read once per reconcile. */
    boolean on();

    /** The annotation whose traceparent a reconcile of the object's own change joins. */
    default String annotation() {
        return DEFAULT_ANNOTATION;
    }

    /**
     * Whether the objects a traced reconcile applies carry its sampled traceparent in
     * {@link #annotation()}, for the operator that reconciles them next ({@code kubeloop.tracing.propagate},
     * docs/tracing.md, "Across operators"). Read once per controller.
     */
    default boolean propagates() {
        return false;
    }

    /**
     * Starts the span of one reconcile (not yet current on any thread: {@link Span#open()}). If
     * {@code reconcile.parent()} carries a W3C {@code traceparent}, the span joins that trace.
     */
    Span reconcile(Reconcile reconcile);

    /**
     * Starts the span of one webhook request at {@code path}, joining the API server's trace when
     * the request carries its {@code traceparent} header (a kube-apiserver with tracing on sends it).
     */
    Span webhook(String path, String traceparent);

    /**
     * What the runtime knows when a reconcile starts.
     *
     * @param controller the reconciler's name (low cardinality)
     * @param key the primary's key
     * @param object the cached primary, or null when it is gone
     * @param priority the priority the key was handed out at
     * @param attempt 1 for a first attempt, 2 for the first retry, ...
     * @param cause why the key was queued (see {@code controller.QueueCauses}): {@code change},
     *     {@code owned}, {@code watched}, {@code requeue}, {@code retry}, {@code trigger},
     *     {@code initial-list}, {@code resync}, {@code unknown}
     * @param causeObject the owned or watched object whose change queued the key ({@code Kind ns/name
     *     event}), or null
     * @param waitedNanos how long the key waited in the queue after it was due
     * @param parent the W3C traceparent to join, or null
     */
    record Reconcile(String controller, ObjectKey key, HasMetadata object, int priority, int attempt, String cause,
            String causeObject, long waitedNanos, String parent) {
    }

    /** One traced piece of work; ends once. */
    interface Span {

        /** Makes the span current on this thread (trace and span ids in the MDC) until the scope closes. */
        Scope open();

        /** A child span for one runtime step of the reconcile ({@code finalizer}, {@code status}), current until closed. */
        Span child(String step, ObjectKey target);

        /**
         * A child span for one HTTP request to the API server, started now on any thread; its
         * context goes onto the request with {@code header}.
         */
        Request request(String method, String path, BiConsumer<String, String> header);

        /**
         * The W3C traceparent of this span, to carry onto an object; null if unknown. An unsampled span
         * has one too, with flags {@code 00} (a retry continues its trace, sampled or not).
         */
        String traceparent();

        /** Ends the span with {@code outcome} (low cardinality) and the error, if any. */
        void end(String outcome, Throwable error);
    }

    /** One API request's span; ended by whichever thread sees the response or the failure. */
    interface Request {
        void response(int code);

        void failed(Throwable error);
    }

    /** Closes what {@link Span#open()} opened, on the same thread. */
    interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
