package dev.kubeloop.api.predicate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * Decides whether an informer event reaches the work queue (controller-runtime's
 * {@code predicate.Predicate}). Everything passes unless a method says otherwise; implement the
 * methods that filter, or compose the built-ins of {@link Predicates} with {@link #and},
 * {@link #or} and {@link #negate()}.
 *
 * <p>Called on the informer's event thread for every event of the watched type, so it must be
 * fast and must not block: compare fields of the objects it is given, nothing more. It must be
 * thread-safe (stateless is best). A predicate that throws drops the event and is logged.
 *
 * <p>A periodic resync replays every cached object as an update whose old and new object are
 * the same (same {@code resourceVersion}); the built-ins let resyncs pass, so that a resync
 * period keeps working, except {@link Predicates#resourceVersionChanged()}, whose purpose is to
 * drop them.
 *
 * @param <T> the watched type
 */
public interface EventPredicate<T extends HasMetadata> {

    /** An object appeared: created, or listed when the informer started or re-listed. */
    default boolean create(T object) {
        return true;
    }

    /** An object changed (or a resync replayed it: then {@code oldObject} and {@code newObject} are equal). */
    default boolean update(T oldObject, T newObject) {
        return true;
    }

    /** An object went away. Filtering deletes is rarely right: a controller should see its objects go. */
    default boolean delete(T object) {
        return true;
    }

    /** Passes an event only if both this and {@code other} pass it. */
    default EventPredicate<T> and(EventPredicate<? super T> other) {
        Objects.requireNonNull(other, "other");
        EventPredicate<T> self = this;
        return new EventPredicate<>() {
            @Override
            public boolean create(T object) {
                return self.create(object) && other.create(object);
            }

            @Override
            public boolean update(T oldObject, T newObject) {
                return self.update(oldObject, newObject) && other.update(oldObject, newObject);
            }

            @Override
            public boolean delete(T object) {
                return self.delete(object) && other.delete(object);
            }
        };
    }

    /** Passes an event if this or {@code other} passes it. */
    default EventPredicate<T> or(EventPredicate<? super T> other) {
        Objects.requireNonNull(other, "other");
        EventPredicate<T> self = this;
        return new EventPredicate<>() {
            @Override
            public boolean create(T object) {
                return self.create(object) || other.create(object);
            }

            @Override
            public boolean update(T oldObject, T newObject) {
                return self.update(oldObject, newObject) || other.update(oldObject, newObject);
            }

            @Override
            public boolean delete(T object) {
                return self.delete(object) || other.delete(object);
            }
        };
    }

    /** Passes exactly the events this predicate drops. */
    default EventPredicate<T> negate() {
        EventPredicate<T> self = this;
        return new EventPredicate<>() {
            @Override
            public boolean create(T object) {
                return !self.create(object);
            }

            @Override
            public boolean update(T oldObject, T newObject) {
                return !self.update(oldObject, newObject);
            }

            @Override
            public boolean delete(T object) {
                return !self.delete(object);
            }
        };
    }
}
