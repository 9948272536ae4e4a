package dev.kubeloop.runtime;

/**
 * Decides whether an event reaches its {@link EventHandler} (controller-runtime's
 * {@code predicate.Predicate}). Everything passes by default; implementations override what they
 * filter. Called on informer event threads: must be fast, stateless or thread-safe.
 *
 * @param <T> the watched type
 */
interface EventPredicate<T> {

    default boolean add(T object, boolean initialList) {
        return true;
    }

    default boolean update(T oldObject, T newObject) {
        return true;
    }

    /** Deletes are never worth skipping: a controller must see an object go. */
    default boolean delete(T object) {
        return true;
    }

    /** {@code handler}, receiving only the events this predicate lets through. */
    default EventHandler<T> filter(EventHandler<T> handler) {
        EventPredicate<T> predicate = this;
        return new EventHandler<>() {
            @Override
            public void onAdd(T object, boolean initialList) {
                if (predicate.add(object, initialList)) {
                    handler.onAdd(object, initialList);
                }
            }

            @Override
            public void onUpdate(T oldObject, T newObject) {
                if (predicate.update(oldObject, newObject)) {
                    handler.onUpdate(oldObject, newObject);
                }
            }

            @Override
            public void onDelete(T object) {
                if (predicate.delete(object)) {
                    handler.onDelete(object);
                }
            }
        };
    }
}
