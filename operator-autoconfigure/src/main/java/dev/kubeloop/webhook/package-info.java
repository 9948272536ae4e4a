/**
 * The webhook server: AdmissionReview v1 and ConversionReview v1 handling for the validators,
 * defaulters and converters of {@code dev.kubeloop.api.webhook}, and the HTTPS server that serves
 * them on its own port. Free of Spring and of the web stack: {@link dev.kubeloop.webhook.Webhooks}
 * turns a request body into an answer (which is all the test kit needs),
 * {@link dev.kubeloop.webhook.WebhookServer} serves it over TLS with Netty, on event loops with
 * deadlines and limits for hostile clients, and {@link dev.kubeloop.webhook.ServerTls} swaps the
 * certificate when it rotates. The Spring Boot wiring (SSL bundles, properties, lifecycle) is in
 * {@code dev.kubeloop.autoconfigure.webhook}.
 *
 * <p>One AdmissionReview, from the socket to the validator and back: {@code ConnectionLimit} and
 * {@code TlsOrPlainHttp} (the connection and its handshake) → {@code WebhookExchange} (reading the
 * request, deadlines, metrics) → {@code WebhookHttpHandler} (method, size, route) → {@code Webhooks#handle} → {@code ValidatingWebhook} (or
 * {@code MutatingWebhook}) → {@code AdmissionReviews} (parse the envelope, answer) → the user's
 * {@code Validator}.
 */
package dev.kubeloop.webhook;
