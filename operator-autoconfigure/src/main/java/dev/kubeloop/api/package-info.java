/**
 * What operator authors touch: {@link dev.kubeloop.api.Reconciler @Reconciler},
 * {@link dev.kubeloop.api.ResourceReconciler}, {@link dev.kubeloop.api.Cleaner},
 * {@link dev.kubeloop.api.Result}, {@link dev.kubeloop.api.ReconcileContext},
 * {@link dev.kubeloop.api.TerminalException}, {@link dev.kubeloop.api.ForeignObjectException} (apply
 * refused to take over an object of others), {@link dev.kubeloop.api.EventRecorder},
 * {@link dev.kubeloop.api.ObjectKey}, {@link dev.kubeloop.api.CacheReader} (read the caches and
 * indexes) and {@link dev.kubeloop.api.ReconcileTriggers} (queue reconciles from outside
 * Kubernetes); watches of related resources are in {@code dev.kubeloop.api.watch}, event filters in
 * {@code dev.kubeloop.api.predicate}.
 *
 * <p>Kept small and stable, and free of Spring and of the runtime's machinery: it depends on the
 * fabric8 model and client interfaces and on SLF4J only (pinned by {@code LayeringTest}).
 *
 * <p>Null-marked (JSpecify): nothing here takes or returns null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.kubeloop.api;

import org.jspecify.annotations.NullMarked;
