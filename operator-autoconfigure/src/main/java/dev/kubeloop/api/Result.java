package dev.kubeloop.api;

import java.time.Duration;
import java.util.Objects;

/**
 * What a reconcile asks the runtime to do next (controller-runtime's {@code reconcile.Result}).
 *
 * <ul>
 *   <li>{@link #done()}: the object is where it should be; its backoff is reset. It is reconciled
 *       again on its next change (or resync).
 *   <li>{@link #requeueAfter(Duration)}: reconcile again after the delay (e.g. to poll something
 *       outside the cluster); the backoff is reset.
 *   <li>{@link #requeue()}: reconcile again with the per-item exponential backoff, as after an
 *       error, but without counting an error.
 * </ul>
 *
 * Throwing an exception is a rate-limited retry counted as an error; throwing a
 * {@link TerminalException} records the error and does not retry.
 */
public final class Result {

    private static final Result DONE = new Result(Kind.DONE, Duration.ZERO);
    private static final Result REQUEUE = new Result(Kind.REQUEUE, Duration.ZERO);

    /** How the runtime treats a result. */
    public enum Kind {
        DONE, REQUEUE, REQUEUE_AFTER
    }

    private final Kind kind;
    private final Duration delay;

    private Result(Kind kind, Duration delay) {
        this.kind = kind;
        this.delay = delay;
    }

    public static Result done() {
        return DONE;
    }

    public static Result requeue() {
        return REQUEUE;
    }

    /** Reconcile again once {@code delay} has elapsed; zero or negative means {@link #requeue()}. */
    public static Result requeueAfter(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isZero() || delay.isNegative()) {
            return REQUEUE;
        }
        return new Result(Kind.REQUEUE_AFTER, delay);
    }

    public Kind kind() {
        return kind;
    }

    /** The delay of a {@link Kind#REQUEUE_AFTER} result, zero otherwise. */
    public Duration delay() {
        return delay;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Result result && result.kind == kind && result.delay.equals(delay);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, delay);
    }

    @Override
    public String toString() {
        return kind == Kind.REQUEUE_AFTER ? "requeueAfter(" + delay + ")" : kind.name().toLowerCase();
    }
}
