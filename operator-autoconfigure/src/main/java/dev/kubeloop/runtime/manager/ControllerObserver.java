package dev.kubeloop.runtime.manager;

import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ControllerListener;

/**
 * Watches the runtime at work: the hook that metrics, health and other integrations implement, so
 * that the runtime itself stays free of Micrometer and Spring. Pass implementations to
 * {@link ControllerManager.Builder#observer}.
 *
 * <p>Per-controller events go to the {@link ControllerListener} that
 * {@link #controllerRegistered} returns; manager- and informer-wide events come here. Gauges are
 * not pushed: read {@link Controller#status()} and {@link ControllerManager#informers()} when a
 * registry samples.
 *
 * <p>Threading: callbacks run on the runtime's own threads (workers, informer threads, the thread
 * that starts the manager) and must be thread-safe, fast and non-blocking. A
 * {@link RuntimeException} thrown by an observer is logged and otherwise ignored, so that a broken
 * metrics binding cannot stop reconciling; an {@link Error} propagates.
 */
public interface ControllerObserver {

    /** An observer that ignores everything. */
    ControllerObserver NOOP = new ControllerObserver() {
    };

    /**
     * A controller is being registered: called once per controller, before its work queue exists
     * and before the manager starts.
     *
     * @return the listener the controller and its work queue report to; {@link ControllerListener#NOOP} for none
     */
    default ControllerListener controllerRegistered(ControllerConfig<?> config) {
        return ControllerListener.NOOP;
    }

    /**
     * Every controller is registered and {@link ControllerManager#start()} begins (its informers may
     * have begun their first lists already, see {@link ControllerManager#startCaches()}): the moment
     * to bind gauges over {@link ControllerManager#controllers()} and {@link ControllerManager#informers()}.
     */
    default void managerStarting(ControllerManager manager) {
    }

    /** Every cache has synced and the workers run. */
    default void managerStarted(ControllerManager manager) {
    }

    /** Start failed; whatever had been started was stopped again. */
    default void managerFailed(ControllerManager manager, Throwable error) {
    }

    /**
     * An informer that had synced stopped for good after an error fabric8 does not retry (see
     * fabric8's {@code ExceptionHandler}): its cache no longer follows the API server, so the
     * controllers using it work on stale data until the process restarts.
     */
    default void informerFailed(InformerStatus informer, Throwable error) {
    }
}
