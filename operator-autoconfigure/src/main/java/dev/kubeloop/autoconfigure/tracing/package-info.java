/**
 * Tracing of reconciles, API requests and webhook requests through the application's
 * {@code ObservationRegistry}, and {@code kubeloop.tracing.*}.
 */
package dev.kubeloop.autoconfigure.tracing;
