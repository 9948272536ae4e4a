package dev.kubeloop.runtime.handler;

import dev.kubeloop.api.CacheReader;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.predicate.Predicates;
import dev.kubeloop.api.watch.Mapper;
import dev.kubeloop.queue.WorkQueue;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Maps a watched object's events to the primaries its {@link Mapper} names (controller-runtime's
 * {@code EnqueueRequestsFromMapFunc}). An update maps the old and the new object and queues the
 * union, so that a primary the object no longer relates to is reconciled too. The initial list and
 * resyncs go in at {@link WorkQueue#LOW_PRIORITY}, like the primary's own. Stateless apart from the
 * (thread-safe) queue, mapper and caches.
 *
 * @param <R> the watched type
 */
public final class EnqueueRequestsFromMapper<R extends HasMetadata> implements EventHandler<R> {

    private final WorkQueue<ObjectKey> queue;
    private final Mapper<? super R> mapper;
    private final CacheReader caches;

    public EnqueueRequestsFromMapper(WorkQueue<ObjectKey> queue, Mapper<? super R> mapper, CacheReader caches) {
        this.queue = queue;
        this.mapper = mapper;
        this.caches = caches;
    }

    @Override
    public void onAdd(R object, boolean initialList) {
        enqueue(mapper.map(object, caches), initialList ? WorkQueue.LOW_PRIORITY : WorkQueue.NORMAL_PRIORITY);
    }

    @Override
    public void onUpdate(R oldObject, R newObject) {
        int priority = Predicates.isResync(oldObject, newObject) ? WorkQueue.LOW_PRIORITY : WorkQueue.NORMAL_PRIORITY;
        Collection<ObjectKey> now = mapper.map(newObject, caches);
        Collection<ObjectKey> before = mapper.map(oldObject, caches);
        if (before.isEmpty() || before.equals(now)) {
            enqueue(now, priority);
            return;
        }
        Set<ObjectKey> both = new LinkedHashSet<>(now);
        both.addAll(before);
        enqueue(both, priority);
    }

    @Override
    public void onDelete(R object) {
        enqueue(mapper.map(object, caches), WorkQueue.NORMAL_PRIORITY);
    }

    private void enqueue(Collection<ObjectKey> keys, int priority) {
        if (keys == null) {
            return;
        }
        for (ObjectKey key : keys) {
            queue.add(key, priority);
        }
    }
}
