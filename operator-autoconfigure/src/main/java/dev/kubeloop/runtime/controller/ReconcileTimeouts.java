package dev.kubeloop.runtime.controller;

import dev.kubeloop.runtime.NamedThreadFactory;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Interrupts reconciles that run past their timeout: one scheduler thread per manager
 * ({@code kubeloop-reconcile-timeouts}) instead of a watchdog per worker.
 *
 * <p>The race between "timeout fires" and "reconcile returns" is settled under the
 * {@link Deadline}'s lock: an interrupt is only ever delivered while the reconcile is still
 * running, and {@link Deadline#finish()} clears it afterwards, so a late interrupt can never hit
 * the worker's next {@code queue.get()} or the next key's reconcile. What a fired deadline means
 * for the reconcile's outcome is the {@link ReconcileHandler}'s decision.
 *
 * <p>Thread-safe. The scheduler is owned by this object and shut down by {@link #close()}.
 */
public final class ReconcileTimeouts implements AutoCloseable {

    private final ScheduledThreadPoolExecutor scheduler;

    public ReconcileTimeouts() {
        scheduler = new ScheduledThreadPoolExecutor(1,
                runnable -> NamedThreadFactory.single("kubeloop-reconcile-timeouts", runnable));
        // most deadlines are cancelled long before they fire: do not keep them queued
        scheduler.setRemoveOnCancelPolicy(true);
    }

    /**
     * Starts the clock for a reconcile running on the calling thread.
     *
     * @return a deadline that must be {@link Deadline#finish() finished} by the same thread
     */
    Deadline start(Duration timeout) {
        Deadline deadline = new Deadline(Thread.currentThread());
        if (!timeout.isZero() && !scheduler.isShutdown()) {
            deadline.future = scheduler.schedule(deadline::fire, timeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        return deadline;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }

    /** One reconcile's deadline. */
    static final class Deadline {
        private final Thread worker;
        private ScheduledFuture<?> future;
        // guarded by this
        private boolean finished;
        private boolean timedOut;

        private Deadline(Thread worker) {
            this.worker = worker;
        }

        private synchronized void fire() {
            if (!finished) {
                timedOut = true;
                worker.interrupt();
            }
        }

        /**
         * Stops the clock; call from the reconciling thread when the reconcile is over.
         *
         * @return true if the timeout fired (the thread's interrupt status is cleared)
         */
        boolean finish() {
            if (future != null) {
                future.cancel(false);
            }
            synchronized (this) {
                finished = true;
                if (timedOut) {
                    Thread.interrupted();
                }
                return timedOut;
            }
        }
    }
}
