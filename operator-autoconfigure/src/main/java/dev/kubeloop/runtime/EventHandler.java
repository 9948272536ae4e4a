package dev.kubeloop.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * Turns informer events into work queue keys (controller-runtime's {@code handler.EventHandler}).
 * Implementations are called on the informer's event thread, one event at a time per informer,
 * and must be fast: they compute a key and add it to a queue, nothing more.
 *
 * @param <T> the type the informer watches
 */
interface EventHandler<T> {

    /**
     * An object appeared in the cache.
     *
     * @param initialList true while the informer replays its first list (startup), so the key can
     *     be queued at low priority behind real changes
     */
    void onAdd(T object, boolean initialList);

    /**
     * An object changed, or a periodic resync replayed it: then {@code oldObject} and
     * {@code newObject} have the same resourceVersion.
     */
    void onUpdate(T oldObject, T newObject);

    /** An object left the cache (deleted, or no longer matching the informer's selector). */
    void onDelete(T object);

    /** True for the update a periodic resync replays: same object, same resourceVersion. */
    static boolean isResync(HasMetadata oldObject, HasMetadata newObject) {
        return Objects.equals(oldObject.getMetadata().getResourceVersion(),
                newObject.getMetadata().getResourceVersion());
    }
}
