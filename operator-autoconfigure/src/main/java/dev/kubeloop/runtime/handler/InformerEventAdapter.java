package dev.kubeloop.runtime.handler;

import dev.kubeloop.api.predicate.EventPredicate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.Objects;
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
 * <p>The {@link EventObserver} decides when an event is delivered: at once, after a write of the
 * object on its way has ended, or never, for an event that is only the echo of the controller's
 * own write (the reconcile that wrote it knew what it wrote). Everyone else's changes, and
 * resyncs, are delivered.
 *
 * <p>A predicate or handler that throws must not stop the informer's event delivery: the
 * exception is logged and the event dropped (they only compare fields and compute keys, so this
 * is a bug, not a transient failure).
 *
 * @param <T> the watched type
 */
public final class InformerEventAdapter<T extends HasMetadata> implements ResourceEventHandler<T> {

    private static final Logger log = LoggerFactory.getLogger(InformerEventAdapter.class);

    private final EventObserver<? super T> observer;
    private final EventPredicate<? super T> predicate;
    private final EventHandler<? super T> handler;
    private final String informer;
    /** Written and read on the informer's serial event executor; volatile for the thread hand-offs. */
    private volatile boolean listed;

    /** An adapter without observer. */
    public InformerEventAdapter(EventPredicate<? super T> predicate, EventHandler<? super T> handler,
            String informer) {
        this(EventObserver.none(), predicate, handler, informer);
    }

    /**
     * @param observer sees every event first, whatever the predicate decides (read-your-writes
     *     learns there that the informer delivered a written version)
     * @param informer the informer's description, for log lines
     */
    public InformerEventAdapter(EventObserver<? super T> observer, EventPredicate<? super T> predicate,
            EventHandler<? super T> handler, String informer) {
        this.observer = observer;
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
        boolean initial = !listed;
        observe(object, false, "add", () -> {
            if (predicate.create(object)) {
                handler.onAdd(object, initial);
            }
        });
    }

    @Override
    public void onUpdate(T oldObject, T newObject) {
        Runnable deliver = () -> {
            if (predicate.update(oldObject, newObject)) {
                handler.onUpdate(oldObject, newObject);
            }
        };
        if (sameVersion(oldObject, newObject)) {
            // a resync asks for a reconcile on purpose: never taken for an echo
            observe(newObject, false, "update", () -> { });
            safely("update", deliver).run();
        } else {
            observe(newObject, false, "update", deliver);
        }
    }

    @Override
    public void onDelete(T object, boolean deletedFinalStateUnknown) {
        observe(object, true, "delete", () -> {
            if (predicate.delete(object)) {
                handler.onDelete(object);
            }
        });
    }

    private void observe(T object, boolean delete, String event, Runnable deliver) {
        try {
            observer.observe(object, delete, safely(event, deliver));
        } catch (RuntimeException e) {
            log.error("Event observer failed on {}: informer={}", event, informer, e);
        }
    }

    /** {@code deliver}, logging what it throws: it may run on a worker thread, after a write ended. */
    private Runnable safely(String event, Runnable deliver) {
        return () -> {
            try {
                deliver.run();
            } catch (RuntimeException e) {
                log.error("Event handler failed on {}: informer={}", event, informer, e);
            }
        };
    }

    private static boolean sameVersion(HasMetadata oldObject, HasMetadata newObject) {
        return oldObject != null && Objects.equals(oldObject.getMetadata().getResourceVersion(),
                newObject.getMetadata().getResourceVersion());
    }
}
