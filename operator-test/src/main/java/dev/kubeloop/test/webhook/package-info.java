/**
 * Testing validators, defaulters and converters: {@link dev.kubeloop.test.webhook.WebhookTester}
 * runs them through Kubeloop's real AdmissionReview and ConversionReview handling without TLS or
 * an API server; {@link dev.kubeloop.test.webhook.TestCertificates} makes a CA and a serving
 * certificate for loopback; {@link dev.kubeloop.test.webhook.ClusterWebhooks} registers a running
 * webhook server with a real API server that can reach it (a local one), for the full path.
 */
package dev.kubeloop.test.webhook;
