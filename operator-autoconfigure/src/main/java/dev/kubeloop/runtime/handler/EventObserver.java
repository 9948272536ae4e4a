package dev.kubeloop.runtime.handler;

/**
 * Sees every event of an informer before any predicate filters it, and decides when what the
 * event asks for is delivered: how read-your-writes learns that the informer delivered a version a
 * controller wrote, and drops the events that are only echoes of the controller's own writes
 * (the reconcile that wrote them knew what it wrote). Called on the informer's thread: fast and
 * thread-safe.
 *
 * @param <T> the watched type
 */
public interface EventObserver<T> {

    /**
     * An object was added or updated (the new version), or deleted ({@code delete}); runs
     * {@code deliver} (which evaluates the predicate and queues keys) now, later (a write of the
     * object is on its way, and only its response can tell whether the event is its echo), or
     * never (an echo).
     */
    void observe(T object, boolean delete, Runnable deliver);

    /** An observer that delivers every event at once. */
    static <T> EventObserver<T> none() {
        return (object, delete, deliver) -> deliver.run();
    }
}
