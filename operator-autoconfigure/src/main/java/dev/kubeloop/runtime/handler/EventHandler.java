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

    /** A handler that hands every event to {@code first}, then to {@code second}. */
    static <T> EventHandler<T> both(EventHandler<? super T> first, EventHandler<? super T> second) {
        return new EventHandler<>() {
            @Override
            public void onAdd(T object, boolean initialList) {
                first.onAdd(object, initialList);
                second.onAdd(object, initialList);
            }

            @Override
            public void onUpdate(T oldObject, T newObject) {
                first.onUpdate(oldObject, newObject);
                second.onUpdate(oldObject, newObject);
            }

            @Override
            public void onDelete(T object) {
                first.onDelete(object);
                second.onDelete(object);
            }
        };
    }
}
