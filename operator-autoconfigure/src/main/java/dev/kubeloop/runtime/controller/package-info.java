/**
 * One reconciler at work: {@link dev.kubeloop.runtime.controller.ControllerWorkers} wires its
 * informer events to its own work queue and runs its named worker threads;
 * {@link dev.kubeloop.runtime.controller.ReconcileHandler} processes one key from the cache to the
 * queue again; {@link dev.kubeloop.runtime.controller.ReconcileOutcome} is the one table of what
 * each outcome means (queue action, error, interrupt, metric label);
 * {@link dev.kubeloop.runtime.controller.FinalizerProtocol} and
 * {@link dev.kubeloop.runtime.controller.Forbidden} hold the finalizer protocol and the 403 policy,
 * each in one place.
 *
 * <p>Seen from outside: {@link dev.kubeloop.runtime.controller.Controller} (status, queue, enqueue),
 * {@link dev.kubeloop.runtime.controller.ControllerConfig} (validated settings),
 * {@link dev.kubeloop.runtime.controller.ControllerListener} and
 * {@link dev.kubeloop.runtime.controller.ReconcileReport} (the hook metrics attach to). The rest is
 * package-private.
 */
package dev.kubeloop.runtime.controller;
