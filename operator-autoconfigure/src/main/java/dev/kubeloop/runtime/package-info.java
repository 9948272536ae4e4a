/**
 * The controller runtime, split along controller-runtime's seams (see docs/architecture.md):
 * {@code cache} (shared informers and their caches), {@code handler} (informer events to work
 * queue keys, through predicates), {@code controller} (one reconciler's queue, workers and the
 * reconcile outcome table), {@code client} (the runtime's own writes), {@code event}
 * (Kubernetes Events) and {@code manager} (the lifecycle of a set of controllers).
 *
 * <p>This package holds what all of them share: {@link dev.kubeloop.runtime.Settings} (the one
 * definition of every setting: property, default, accepted values),
 * {@link dev.kubeloop.runtime.KubeloopConfigurationException} and
 * {@link dev.kubeloop.runtime.NamedThreadFactory}. It imports none of its subpackages.
 *
 * <p>Follow one key: informer event → {@code handler.InformerEventAdapter} (predicate) →
 * {@code handler.EnqueueRequestForObject} → {@code queue.PriorityWorkQueue} →
 * {@code controller.ControllerWorkers} (worker loop) → {@code controller.ReconcileHandler}
 * (latest object from the cache, timeout, MDC, the reconciler) → back onto the queue as
 * {@code controller.ReconcileOutcome} says.
 *
 * <p>The runtime depends on {@code dev.kubeloop.api}, {@code dev.kubeloop.queue}, fabric8 and
 * SLF4J only; no Spring and no Micrometer, so it runs in any Java application and is tested
 * without a context.
 */
package dev.kubeloop.runtime;
