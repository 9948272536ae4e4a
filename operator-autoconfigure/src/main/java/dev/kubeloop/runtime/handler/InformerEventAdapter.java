package dev.kubeloop.runtime.handler;

import dev.kubeloop.api.predicate.EventPredicate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where an informer's event enters a controller (controller-runtime's source event handler): it
 * asks the {@link EventPredicate} whether the event matters, and if so hands it to the
 * {@link EventHandler}, which queues keys. One adapter per (informer, handler) pair, because it
 * tells the initial list's adds apart from later ones, and that is per informer: fabric8 delivers
 * the first list's adds and then {@code onList}, in order, on the informer's serial event
 * executor, so every add seen before the first {@code onList} belongs to the initial list.
 *
 * <p>A predicate or handler that throws must not stop the informer's event delivery: the
 * exception is logged and the event dropped (they only compare fields and compute keys, so this
 * is a bug, not a transient failure).
 *
 * @param <T> the watched type
 */
public final class InformerEventAdapter<T extends HasMetadata> implements ResourceEventHandler<T> {

    private static final Logger log = LoggerFactory.getLogger(InformerEventAdapter.class);

    private final EventPredicate<? super T> predicate;
    private final EventHandler<? super T> handler;
    private final String informer;
    /** Written and read on the informer's serial event executor; volatile for the thread hand-offs. */
    private volatile boolean listed;

    /**
     * @param informer the informer's description, for log lines
     */
    public InformerEventAdapter(EventPredicate<? super T> predicate, EventHandler<? super T> handler,
            String informer) {
        this.predicate = predicate;
        this.handler = handler;
        this.informer = informer;
    }

    @Override
    public void onList(String resourceVersion, boolean remainedEmpty) {
        listed = true;
    }

    @Override
    public void onAdd(T object) {
        try {
            if (predicate.create(object)) {
                handler.onAdd(object, !listed);
            }
        } catch (RuntimeException e) {
            log.error("Event handler failed on add: informer={}", informer, e);
        }
    }

    @Override
    public void onUpdate(T oldObject, T newObject) {
        try {
            if (predicate.update(oldObject, newObject)) {
                handler.onUpdate(oldObject, newObject);
            }
        } catch (RuntimeException e) {
            log.error("Event handler failed on update: informer={}", informer, e);
        }
    }

    @Override
    public void onDelete(T object, boolean deletedFinalStateUnknown) {
        try {
            if (predicate.delete(object)) {
                handler.onDelete(object);
            }
        } catch (RuntimeException e) {
            log.error("Event handler failed on delete: informer={}", informer, e);
        }
    }
}
