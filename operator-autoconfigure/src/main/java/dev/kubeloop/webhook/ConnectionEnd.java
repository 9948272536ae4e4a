package dev.kubeloop.webhook;

import java.util.Locale;

/**
 * Why the webhook server closed a connection on its own (a client closing is not counted): the
 * {@code reason} tag of {@code kubeloop_webhook_connections_closed_total}. Each one is a client
 * that was too slow, too many, or not speaking what the API server speaks.
 */
public enum ConnectionEnd {

    /** The TLS handshake did not complete within {@code kubeloop.webhook.handshake-timeout}. */
    HANDSHAKE_TIMEOUT,
    /** The TLS handshake failed (a client that does not trust the certificate, garbage instead of TLS). */
    HANDSHAKE_FAILED,
    /** Plain HTTP to the HTTPS port: answered 400, as Go's TLS server does, and closed. */
    PLAIN_HTTP,
    /** Idle between requests for longer than {@code kubeloop.webhook.idle-timeout}. */
    IDLE_TIMEOUT,
    /** A request begun but not received whole within {@code kubeloop.webhook.request-timeout}: 408. */
    REQUEST_TIMEOUT,
    /** Closed to make room for a new connection at {@code kubeloop.webhook.max-connections}: the oldest not serving a request. */
    EVICTED,
    /** Refused at {@code kubeloop.webhook.max-connections}, every open connection serving a request. */
    OVER_LIMIT,
    /** A request that is not HTTP/1.1 as the API server sends it (line or headers too long, unparsable): 4xx. */
    MALFORMED;

    /** The metric tag value: {@code handshake_timeout}. */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
