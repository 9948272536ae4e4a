/**
 * The lifecycle of a set of controllers ({@link dev.kubeloop.runtime.manager.ControllerManager}):
 * start (CRDs served, informers synced, then the {@link dev.kubeloop.runtime.manager.WorkGate}
 * opens the workers) and stop (drain, release, stop informers), and the observer hook
 * ({@link dev.kubeloop.runtime.manager.ControllerObserver}) that metrics and health implement.
 */
package dev.kubeloop.runtime.manager;
