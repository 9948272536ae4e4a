/**
 * Tracing with the Micrometer Observation API: {@link dev.kubeloop.observation.ObservationTracing}
 * implements the runtime's {@link dev.kubeloop.runtime.Tracing} seam, so that every reconcile, its
 * API requests, its finalizer and status writes and every webhook request become observations
 * (spans, with Micrometer Tracing; timers, with a meter handler). The names and attributes are a
 * contract, listed in {@link dev.kubeloop.observation.KubeloopObservations} and docs/tracing.md.
 * Depends on the runtime and Micrometer only; the Spring auto-configuration wires it.
 */
package dev.kubeloop.observation;
