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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fans the runtime's events out to every registered {@link ControllerObserver}, and the events of
 * one controller to every {@link ControllerListener} the observers returned for it. A
 * {@link RuntimeException} from one observer is logged and does not keep the others from being
 * called, nor the runtime from working; an {@link Error} propagates.
 *
 * <p>Immutable after construction, hence thread-safe.
 */
final class Observers implements ControllerObserver {

    private static final Logger log = LoggerFactory.getLogger(Observers.class);

    private final List<ControllerObserver> observers;

    Observers(List<ControllerObserver> observers) {
        this.observers = List.copyOf(observers);
    }

    @Override
    public ControllerListener controllerRegistered(ControllerConfig<?> config) {
        List<ControllerListener> listeners = new ArrayList<>();
        for (ControllerObserver observer : observers) {
            try {
                ControllerListener listener = observer.controllerRegistered(config);
                if (listener != null && listener != ControllerListener.NOOP) {
                    listeners.add(listener);
                }
            } catch (RuntimeException e) {
                failed(observer, "controllerRegistered", e);
            }
        }
        return listeners.isEmpty() ? ControllerListener.NOOP : new Listeners(listeners);
    }

    @Override
    public void managerStarting(ControllerManager manager) {
        for (ControllerObserver observer : observers) {
            try {
                observer.managerStarting(manager);
            } catch (RuntimeException e) {
                failed(observer, "managerStarting", e);
            }
        }
    }

    @Override
    public void managerStarted(ControllerManager manager) {
        for (ControllerObserver observer : observers) {
            try {
                observer.managerStarted(manager);
            } catch (RuntimeException e) {
                failed(observer, "managerStarted", e);
            }
        }
    }

    @Override
    public void managerFailed(ControllerManager manager, Throwable error) {
        for (ControllerObserver observer : observers) {
            try {
                observer.managerFailed(manager, error);
            } catch (RuntimeException e) {
                failed(observer, "managerFailed", e);
            }
        }
    }

    @Override
    public void informerFailed(InformerStatus informer, Throwable error) {
        for (ControllerObserver observer : observers) {
            try {
                observer.informerFailed(informer, error);
            } catch (RuntimeException e) {
                failed(observer, "informerFailed", e);
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
            for (ControllerListener listener : listeners) {
                try {
                    listener.added(priority);
                } catch (RuntimeException e) {
                    failed(listener, "added", e);
                }
            }
        }

        @Override
        public void dequeued(long queuedNanos) {
            for (ControllerListener listener : listeners) {
                try {
                    listener.dequeued(queuedNanos);
                } catch (RuntimeException e) {
                    failed(listener, "dequeued", e);
                }
            }
        }

        @Override
        public void done(long workNanos) {
            for (ControllerListener listener : listeners) {
                try {
                    listener.done(workNanos);
                } catch (RuntimeException e) {
                    failed(listener, "done", e);
                }
            }
        }

        @Override
        public void retried() {
            for (ControllerListener listener : listeners) {
                try {
                    listener.retried();
                } catch (RuntimeException e) {
                    failed(listener, "retried", e);
                }
            }
        }

        @Override
        public void reconcileStarted(ObjectKey key) {
            for (ControllerListener listener : listeners) {
                try {
                    listener.reconcileStarted(key);
                } catch (RuntimeException e) {
                    failed(listener, "reconcileStarted", e);
                }
            }
        }

        @Override
        public void reconcileFinished(ReconcileReport report) {
            for (ControllerListener listener : listeners) {
                try {
                    listener.reconcileFinished(report);
                } catch (RuntimeException e) {
                    failed(listener, "reconcileFinished", e);
                }
            }
        }

        @Override
        public void written(WriteOperation operation, boolean skipped) {
            for (ControllerListener listener : listeners) {
                try {
                    listener.written(operation, skipped);
                } catch (RuntimeException e) {
                    failed(listener, "written", e);
                }
            }
        }

        @Override
        public void staleRead(boolean avoided) {
            for (ControllerListener listener : listeners) {
                try {
                    listener.staleRead(avoided);
                } catch (RuntimeException e) {
                    failed(listener, "staleRead", e);
                }
            }
        }

        @Override
        public void eventTakenIn(HasMetadata object, boolean delete) {
            for (ControllerListener listener : listeners) {
                try {
                    listener.eventTakenIn(object, delete);
                } catch (RuntimeException e) {
                    failed(listener, "eventTakenIn", e);
                }
            }
        }

        @Override
        public void cacheCaughtUp(Duration lag) {
            for (ControllerListener listener : listeners) {
                try {
                    listener.cacheCaughtUp(lag);
                } catch (RuntimeException e) {
                    failed(listener, "cacheCaughtUp", e);
                }
            }
        }

        @Override
        public void workerDied(Throwable error) {
            for (ControllerListener listener : listeners) {
                try {
                    listener.workerDied(error);
                } catch (RuntimeException e) {
                    failed(listener, "workerDied", e);
                }
            }
        }
    }
}
