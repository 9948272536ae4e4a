/**
 * The controller-runtime metrics of every controller, registered with the application's
 * {@code MeterRegistry}.
 */
package dev.kubeloop.autoconfigure.metrics;
