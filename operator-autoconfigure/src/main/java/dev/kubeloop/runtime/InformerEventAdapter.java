package dev.kubeloop.runtime;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adapts one {@link EventHandler} to one fabric8 informer, telling the initial list's adds apart
 * from later ones. fabric8 delivers the first list's adds and then {@code onList}, in order, on the
 * informer's serial event executor; so every add seen before the first {@code onList} belongs to
 * the initial list. One adapter per (handler, informer) pair, because the flag is per informer.
 *
 * <p>One adapter per informer also counts its re-lists: fabric8 calls {@code onBeforeList} before
 * every list with the last synced resource version, which is null only before the first one. A
 * re-list happens when the watch expired (410 Gone) or failed and fabric8 retries with a new list
 * and watch; fabric8's transparent reconnects of a healthy watch do not re-list.
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
    /** The informer's re-list counter, or null if another adapter of the informer counts them. */
    private final LongAdder relists;

    InformerEventAdapter(EventHandler<? super T> handler, String description) {
        this(handler, description, null);
    }

    InformerEventAdapter(EventHandler<? super T> handler, String description, LongAdder relists) {
        this.handler = handler;
        this.description = description;
        this.relists = relists;
    }

    @Override
    public void onBeforeList(String lastSyncResourceVersion) {
        if (relists != null && lastSyncResourceVersion != null) {
            relists.increment();
        }
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
