package dev.kubeloop.runtime.handler;

/**
 * Turns informer events into work queue keys (controller-runtime's {@code handler.EventHandler}).
 * Implementations are called on the informer's event thread, one event at a time per informer,
 * and must be fast: they compute keys and add them to a queue, nothing more.
 *
 * @param <T> the type the informer watches
 */
public interface EventHandler<T> {

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
}
