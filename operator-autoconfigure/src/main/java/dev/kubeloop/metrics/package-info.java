/**
 * Micrometer metrics with controller-runtime's names: {@link dev.kubeloop.metrics.KubeloopMetrics}
 * observes the runtime ({@link dev.kubeloop.runtime.ControllerObserver}) and registers counters,
 * histograms and gauges in a {@code MeterRegistry}. Depends on the runtime and Micrometer only; the
 * Spring auto-configuration wires it.
 */
package dev.kubeloop.metrics;
