package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import java.time.Duration;
import java.util.Objects;

/**
 * How one processed key ended, as reported to {@link ControllerListener#reconcileFinished} and
 * applied to the work queue by the {@link ReconcileHandler}. Immutable.
 *
 * @param controller the controller's name
 * @param key the key processed
 * @param outcome how it ended; see {@link ReconcileOutcome} for what follows from it
 * @param delay the requeue delay of a {@link ReconcileOutcome#REQUEUE_AFTER} outcome; zero otherwise
 * @param error what the reconciler threw (or the conflict or timeout); null when it returned a result
 * @param duration how long processing took, reading the cache and calling the reconciler included
 * @param retries how many rate-limited requeues of this key preceded this run (0 on the first try)
 * @param priority the priority the key was queued at; requeues keep it
 */
public record ReconcileReport(String controller, ObjectKey key, ReconcileOutcome outcome, Duration delay,
        Throwable error, Duration duration, int retries, int priority) {

    public ReconcileReport {
        Objects.requireNonNull(controller, "controller");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(duration, "duration");
    }

    /** This run's attempt number: 1 on the first try, then one more for every rate-limited requeue. */
    public int attempt() {
        return retries + 1;
    }

    /**
     * True if the reconciler failed the way a Go reconciler panics rather than returns an error
     * (controller-runtime's {@code controller_runtime_reconcile_panics_total}): see {@link #isPanic}.
     */
    public boolean panic() {
        return (outcome == ReconcileOutcome.ERROR || outcome == ReconcileOutcome.RETRIES_EXHAUSTED) && isPanic(error);
    }

    /**
     * Whether {@code error} is a bug rather than a failure the reconciler reports: a
     * {@link java.lang.Error} (assertion, stack overflow, linkage, out of memory) or one of the
     * exceptions the JVM itself raises for a programming mistake, which are what Go's runtime
     * panics on: a null dereference, a failed cast, an index out of bounds, an arithmetic error,
     * an array store or negative array size. API failures ({@code KubernetesClientException}) and
     * exceptions a reconciler throws on purpose are errors, not panics.
     */
    public static boolean isPanic(Throwable error) {
        return error instanceof Error
                || error instanceof NullPointerException
                || error instanceof ClassCastException
                || error instanceof IndexOutOfBoundsException
                || error instanceof ArithmeticException
                || error instanceof ArrayStoreException
                || error instanceof NegativeArraySizeException;
    }
}
