/**
 * The controller runtime: shared informers ({@code InformerRegistry}), event handlers and
 * predicates that turn informer events into work queue keys, one {@link dev.kubeloop.runtime.Controller}
 * (queue + named worker pool) per reconciler, and the {@link dev.kubeloop.runtime.ControllerManager}
 * that starts and stops them in order.
 *
 * <p>Follow one key: informer event → {@code InformerEventAdapter} → predicate
 * ({@code GenerationChangedPredicate}) → handler ({@code EnqueueRequestForObject} or
 * {@code EnqueueRequestForOwner}) → the controller's work queue → a worker in {@code Controller}
 * → {@code ReconcileRunner} (latest object from the cache, finalizer, timeout, MDC) → the
 * reconciler → {@code Outcome} → back onto the queue.
 *
 * <p>Observing: {@code ControllerObserver} and {@code ControllerListener} hear about every
 * controller, reconcile ({@code ReconcileReport}), worker and informer, which is how the metrics
 * and the liveness bridge are attached; {@code Controller#status()}, {@code ControllerManager#state()}
 * and {@code ControllerManager#informers()} are snapshots ({@code ControllerStatus},
 * {@code InformerStatus}) for health checks and introspection.
 *
 * <p>Depends on {@code dev.kubeloop.api}, {@code dev.kubeloop.queue}, fabric8 and SLF4J only; no
 * Spring and no Micrometer, so it can run in any Java application and be tested without a context.
 */
package dev.kubeloop.runtime;
