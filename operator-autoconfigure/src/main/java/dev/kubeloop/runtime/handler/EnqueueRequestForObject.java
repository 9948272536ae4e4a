package dev.kubeloop.runtime.handler;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.predicate.Predicates;
import dev.kubeloop.queue.WorkQueue;
import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Maps a primary object's events to its own key (controller-runtime's
 * {@code EnqueueRequestForObject}). The initial list and resyncs go in at
 * {@link WorkQueue#LOW_PRIORITY}, so that after a restart, real changes are reconciled before the
 * replay of everything that already existed. Deletes are enqueued too: the worker then finds the
 * object gone and forgets its key. Stateless apart from the (thread-safe) queue.
 */
public final class EnqueueRequestForObject<T extends HasMetadata> implements EventHandler<T> {

    private final WorkQueue<ObjectKey> queue;

    public EnqueueRequestForObject(WorkQueue<ObjectKey> queue) {
        this.queue = queue;
    }

    @Override
    public void onAdd(T object, boolean initialList) {
        queue.add(ObjectKey.of(object), initialList ? WorkQueue.LOW_PRIORITY : WorkQueue.NORMAL_PRIORITY);
    }

    @Override
    public void onUpdate(T oldObject, T newObject) {
        boolean resync = Predicates.isResync(oldObject, newObject);
        queue.add(ObjectKey.of(newObject), resync ? WorkQueue.LOW_PRIORITY : WorkQueue.NORMAL_PRIORITY);
    }

    @Override
    public void onDelete(T object) {
        queue.add(ObjectKey.of(object));
    }
}
