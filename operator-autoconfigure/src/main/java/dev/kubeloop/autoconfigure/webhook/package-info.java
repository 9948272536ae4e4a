/**
 * The webhook server's Spring side: the validator, defaulter and converter beans collected, the
 * HTTPS server with a Spring Boot SSL bundle, its metrics and health, the development registration,
 * and {@code kubeloop.webhook.*}. The server itself is {@code dev.kubeloop.webhook}.
 */
package dev.kubeloop.autoconfigure.webhook;
