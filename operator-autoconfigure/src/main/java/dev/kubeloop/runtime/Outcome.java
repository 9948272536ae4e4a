package dev.kubeloop.runtime;

import dev.kubeloop.api.Result;
import java.time.Duration;

/** What one reconcile of one key came to: a {@link ReconcileOutcome} with its delay or error. Immutable. */
record Outcome(ReconcileOutcome kind, Duration delay, Throwable error) {

    static final Outcome GONE = new Outcome(ReconcileOutcome.GONE, Duration.ZERO, null);
    static final Outcome SUCCESS = new Outcome(ReconcileOutcome.SUCCESS, Duration.ZERO, null);
    static final Outcome REQUEUE = new Outcome(ReconcileOutcome.REQUEUE, Duration.ZERO, null);

    static Outcome of(Result result) {
        if (result == null) {
            return failed(new IllegalStateException("the reconciler returned null instead of a Result"));
        }
        return switch (result.kind()) {
            case DONE -> SUCCESS;
            case REQUEUE -> REQUEUE;
            case REQUEUE_AFTER -> new Outcome(ReconcileOutcome.REQUEUE_AFTER, result.delay(), null);
        };
    }

    static Outcome failed(Throwable error) {
        return new Outcome(ReconcileOutcome.ERROR, Duration.ZERO, error);
    }

    static Outcome terminal(Throwable error) {
        return new Outcome(ReconcileOutcome.TERMINAL_ERROR, Duration.ZERO, error);
    }

    static Outcome conflict(Throwable error) {
        return new Outcome(ReconcileOutcome.CONFLICT, Duration.ZERO, error);
    }

    static Outcome timeout(Throwable error) {
        return new Outcome(ReconcileOutcome.TIMEOUT, Duration.ZERO, error);
    }
}
