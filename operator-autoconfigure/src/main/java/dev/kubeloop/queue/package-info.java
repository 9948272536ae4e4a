/**
 * The work queue that sits between informer events and reconcile workers.
 *
 * <p>Semantics follow client-go's {@code util/workqueue} plus controller-runtime's priority queue:
 * an item is queued at most once however often it is added (dirty set); an item is never handed to
 * two workers at once (processing set) and, if added while being processed, is handed out again
 * after {@code done}; delayed adds keep the earliest ready time; rate-limited adds back off per item.
 *
 * <p>This package depends on the JDK only: no Spring, no fabric8, no Micrometer. Metrics are
 * reported through {@link dev.kubeloop.queue.WorkQueueListener} and read through
 * {@link dev.kubeloop.queue.WorkQueueStats}.
 */
package dev.kubeloop.queue;
