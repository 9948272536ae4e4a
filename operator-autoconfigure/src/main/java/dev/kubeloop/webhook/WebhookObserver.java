package dev.kubeloop.webhook;

import java.util.List;

/**
 * Hears what the webhook server does, for metrics: controller-runtime's
 * {@code controller_runtime_webhook_*} series ({@code dev.kubeloop.metrics.WebhookMetrics}).
 * Called on the server's threads, concurrently: implementations are thread-safe and fast. Only
 * requests to a served path are reported, as controller-runtime instruments only registered hooks.
 */
public interface WebhookObserver {

    /** The server started serving these webhooks. */
    default void serving(List<Webhook> webhooks) {
    }

    /**
     * The server started, with its transport's counters (connections, TLS handshakes in progress,
     * requests waiting for a thread, connections closed by reason), readable from any thread: for
     * gauges. Called once per start, before {@link #serving}.
     */
    default void transport(WebhookServerStats stats) {
    }

    /** A request to {@code webhook} arrived (in flight until {@link #requestFinished}). */
    default void requestStarted(Webhook webhook) {
    }

    /**
     * The answer to a request was written with HTTP {@code status} after {@code nanos}; 499 when
     * the client closed the connection before its request arrived whole (nothing was answered).
     */
    default void requestFinished(Webhook webhook, int status, long nanos) {
    }

    /** A validator, defaulter or converter threw; the request was denied (or the conversion failed). */
    default void userCodeFailed(Webhook webhook, Throwable failure) {
    }

    /** An observer that hears nothing. */
    static WebhookObserver none() {
        return new WebhookObserver() {
        };
    }
}
