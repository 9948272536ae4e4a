package dev.kubeloop.runtime.manager;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ControllerListener;
import dev.kubeloop.runtime.controller.ReconcileReport;
import dev.kubeloop.runtime.controller.WriteOperation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fans the runtime's events out to every registered {@link ControllerObserver}, and the events of
 * one controller to every {@link ControllerListener} the observers returned for it. A
 * {@link RuntimeException} from one observer is logged and does not keep the others from being
 * called, nor the runtime from working; an {@link Error} propagates.
 *
 * <p>Every callback is one call of {@link #each}: the one place that says what a failing observer
 * costs. The listeners' callbacks run under the queue's lock, so {@code each} stays a plain loop;
 * a lambda that captures the callback's arguments is small and does not escape it.
 *
 * <p>Immutable after construction, hence thread-safe.
 */
final class Observers implements ControllerObserver {

    private static final Logger log = LoggerFactory.getLogger(Observers.class);

    private final ControllerObserver[] observers;

    Observers(List<ControllerObserver> observers) {
        this.observers = observers.toArray(ControllerObserver[]::new);
    }

    @Override
    public ControllerListener controllerRegistered(ControllerConfig<?> config) {
        List<ControllerListener> listeners = new ArrayList<>();
        each(observers, "controllerRegistered", observer -> {
            ControllerListener listener = observer.controllerRegistered(config);
            if (listener != null && listener != ControllerListener.NOOP) {
                listeners.add(listener);
            }
        });
        return listeners.isEmpty() ? ControllerListener.NOOP : new Listeners(listeners);
    }

    @Override
    public void managerStarting(ControllerManager manager) {
        each(observers, "managerStarting", observer -> observer.managerStarting(manager));
    }

    @Override
    public void managerStarted(ControllerManager manager) {
        each(observers, "managerStarted", observer -> observer.managerStarted(manager));
    }

    @Override
    public void managerFailed(ControllerManager manager, Throwable error) {
        each(observers, "managerFailed", observer -> observer.managerFailed(manager, error));
    }

    @Override
    public void informerFailed(InformerStatus informer, Throwable error) {
        each(observers, "informerFailed", observer -> observer.informerFailed(informer, error));
    }

    /** Calls {@code call} on every target; a RuntimeException is logged and the next target called. */
    private static <L> void each(L[] targets, String callback, Consumer<L> call) {
        for (L target : targets) {
            try {
                call.accept(target);
            } catch (RuntimeException e) {
                failed(target, callback, e);
            }
        }
    }

    private static void failed(Object observer, String callback, RuntimeException e) {
        log.warn("Observer failed, ignored: observer={} callback={}", observer.getClass().getName(), callback, e);
    }

    /** The listeners of one controller. Queue callbacks run under the queue's lock: a plain loop, nothing more. */
    private static final class Listeners implements ControllerListener {

        private final ControllerListener[] listeners;

        Listeners(List<ControllerListener> listeners) {
            this.listeners = listeners.toArray(ControllerListener[]::new);
        }

        @Override
        public void added(int priority) {
            each(listeners, "added", listener -> listener.added(priority));
        }

        @Override
        public void dequeued(long queuedNanos) {
            each(listeners, "dequeued", listener -> listener.dequeued(queuedNanos));
        }

        @Override
        public void done(long workNanos) {
            each(listeners, "done", listener -> listener.done(workNanos));
        }

        @Override
        public void retried() {
            each(listeners, "retried", ControllerListener::retried);
        }

        @Override
        public void reconcileStarted(ObjectKey key) {
            each(listeners, "reconcileStarted", listener -> listener.reconcileStarted(key));
        }

        @Override
        public void reconcileFinished(ReconcileReport report) {
            each(listeners, "reconcileFinished", listener -> listener.reconcileFinished(report));
        }

        @Override
        public void written(WriteOperation operation, boolean skipped) {
            each(listeners, "written", listener -> listener.written(operation, skipped));
        }

        @Override
        public void staleRead(boolean avoided) {
            each(listeners, "staleRead", listener -> listener.staleRead(avoided));
        }

        @Override
        public void eventTakenIn(HasMetadata object, boolean delete) {
            each(listeners, "eventTakenIn", listener -> listener.eventTakenIn(object, delete));
        }

        @Override
        public void undeclaredDelete(HasMetadata object, String advice) {
            each(listeners, "undeclaredDelete", listener -> listener.undeclaredDelete(object, advice));
        }

        @Override
        public void cacheCaughtUp(Duration lag) {
            each(listeners, "cacheCaughtUp", listener -> listener.cacheCaughtUp(lag));
        }

        @Override
        public void workerDied(Throwable error) {
            each(listeners, "workerDied", listener -> listener.workerDied(error));
        }
    }
}
