package dev.kubeloop.runtime.manager;

import dev.kubeloop.runtime.NamedThreadFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The first half of a manager's start: the check that every custom resource type is served, then
 * starting the event writer and the informers, whose first lists then run on fabric8's threads.
 * It can begin before the second half (waiting for the caches and opening the work gate), on a
 * thread of its own: the check and the lists are network-bound, while whatever the application
 * still builds around the manager (its web server, actuator, other beans) is CPU-bound, so they
 * overlap instead of adding up. Started or not, {@link ControllerManager#start()} waits here.
 *
 * <p>State ownership: {@code result} and {@code fenced} are guarded by {@code this}. The starting
 * thread runs the check without the lock (it is a request) and starts the writer and the informers
 * under it, after reading {@code fenced}; a stop {@link #fence() fences} under the same lock, so
 * after a stop began nothing is started, and a start under way completes before the stop goes on.
 */
final class CacheStart {

    static final String THREAD_NAME = "kubeloop-cache-start";

    private final Runnable check;
    private final Runnable start;
    private CompletableFuture<Void> result;
    private boolean fenced;

    /**
     * @param check fails, naming what is missing, when a type is not served; runs first, alone
     * @param start starts what must not start after a stop (the event writer, the informers)
     */
    CacheStart(Runnable check, Runnable start) {
        this.check = check;
        this.start = start;
    }

    /** Begins on a thread of its own; returns at once. Does nothing if it has begun. */
    synchronized void beginInBackground() {
        if (result != null) {
            return;
        }
        CompletableFuture<Void> outcome = new CompletableFuture<>();
        result = outcome;
        NamedThreadFactory.single(THREAD_NAME, () -> run(outcome)).start();
    }

    /** Whether it has begun, so that no controller can be registered any more. */
    synchronized boolean begun() {
        return result != null;
    }

    /**
     * Runs it on the calling thread, or, if it began in the background, waits for it there; either
     * way, throws what it threw.
     */
    void runOrAwait() throws InterruptedException {
        CompletableFuture<Void> outcome;
        boolean here;
        synchronized (this) {
            here = result == null;
            if (here) {
                result = new CompletableFuture<>();
            }
            outcome = result;
        }
        if (here) {
            run(outcome);
        }
        try {
            outcome.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        }
    }

    /** Nothing starts after this; a start in progress has completed when it returns. */
    synchronized void fence() {
        fenced = true;
    }

    private void run(CompletableFuture<Void> outcome) {
        try {
            check.run();
            synchronized (this) {
                if (fenced) {
                    throw new IllegalStateException("the manager was stopped before its caches started");
                }
                start.run();
            }
            outcome.complete(null);
        } catch (RuntimeException | Error e) {
            outcome.completeExceptionally(e);
        }
    }
}
