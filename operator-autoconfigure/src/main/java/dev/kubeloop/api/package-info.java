/**
 * What operator authors touch: {@link dev.kubeloop.api.Reconciler @Reconciler},
 * {@link dev.kubeloop.api.ResourceReconciler}, {@link dev.kubeloop.api.Result},
 * {@link dev.kubeloop.api.ReconcileContext}, {@link dev.kubeloop.api.TerminalException} and
 * {@link dev.kubeloop.api.EventRecorder}.
 *
 * <p>Kept small and stable, and free of Spring and of the runtime's machinery: it depends on the
 * fabric8 model and client interfaces and on SLF4J only.
 */
package dev.kubeloop.api;
