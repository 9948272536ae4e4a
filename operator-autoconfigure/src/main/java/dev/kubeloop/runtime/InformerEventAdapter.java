package dev.kubeloop.runtime;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adapts one {@link EventHandler} to one fabric8 informer, telling the initial list's adds apart
 * from later ones. fabric8 delivers the first list's adds and then {@code onList}, in order, on the
 * informer's serial event executor; so every add seen before the first {@code onList} belongs to
 * the initial list. One adapter per (handler, informer) pair, because the flag is per informer.
 *
 * <p>A handler that throws must not stop the informer's event delivery: the exception is logged
 * and the event dropped (handlers only compute keys, so this is a bug, not a transient failure).
 */
final class InformerEventAdapter<T> implements ResourceEventHandler<T> {

    private static final Logger log = LoggerFactory.getLogger(InformerEventAdapter.class);

    private final EventHandler<? super T> handler;
    private final String description;
    /** Written and read on the informer's serial event executor; volatile for the thread hand-offs. */
    private volatile boolean listed;

    InformerEventAdapter(EventHandler<? super T> handler, String description) {
        this.handler = handler;
        this.description = description;
    }

    @Override
    public void onList(String resourceVersion, boolean remainedEmpty) {
        listed = true;
    }

    @Override
    public void onAdd(T object) {
        try {
            handler.onAdd(object, !listed);
        } catch (RuntimeException e) {
            log.error("Event handler failed on add: informer={}", description, e);
        }
    }

    @Override
    public void onUpdate(T oldObject, T newObject) {
        try {
            handler.onUpdate(oldObject, newObject);
        } catch (RuntimeException e) {
            log.error("Event handler failed on update: informer={}", description, e);
        }
    }

    @Override
    public void onDelete(T object, boolean deletedFinalStateUnknown) {
        try {
            handler.onDelete(object);
        } catch (RuntimeException e) {
            log.error("Event handler failed on delete: informer={}", description, e);
        }
    }
}
