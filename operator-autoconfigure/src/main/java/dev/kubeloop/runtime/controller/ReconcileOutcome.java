package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ApiRefusal;
import dev.kubeloop.api.ForeignObjectException;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.TerminalException;
import dev.kubeloop.runtime.Causes;
import java.net.HttpURLConnection;
import java.time.Duration;

/**
 * How one processed key ended, and everything the runtime does about it: the one table of
 * reconcile outcomes. Each column is a method with an exhaustive {@code switch}, so a new outcome
 * does not compile until every column says what it means for it.
 *
 * <pre>
 * outcome            queue action          error  interrupt?  controller_runtime_reconcile_total{result}
 * GONE               forget                 no     no          success
 * SUCCESS            forget                 no     no          success
 * REQUEUE            backoff                no     yes         requeue
 * REQUEUE_AFTER      forget, after delay    no     no          requeue_after
 * ERROR              backoff                yes    yes         error
 * TERMINAL_ERROR     forget                 yes    no          error
 * CONFLICT           conflict backoff       yes    yes         error
 * TIMEOUT            backoff                yes    yes         error
 * RETRIES_EXHAUSTED  forget (rests)         yes    yes         error
 * </pre>
 *
 * Requeues keep the priority the key was handed out at. A conflict's backoff is the key's own
 * short exponential backoff ({@link #CONFLICT_BACKOFF_BASE} doubling to {@link #CONFLICT_BACKOFF_MAX}),
 * apart from the controller's rate limiter: a 409 means a newer object is on its way through the
 * informer, so it must not spend a token of the rate limiter's shared bucket (under a stream of
 * changes, conflicts drained it and every retry queued behind it). "interrupt?" says whether pausing the
 * workers (leader election) can have caused the outcome by interrupting the reconcile: then the
 * reconcile decided nothing, and the key is queued again at once for the next start instead of
 * after a backoff. How each outcome is logged is {@link ReconcileHandler}'s business; a refusal
 * among the errors (403, 400, 422) is {@link Refusals}'.
 *
 * <p>{@code RETRIES_EXHAUSTED} is the failure (an error or a timeout) that reaches the
 * reconciler's {@code max-attempts}: the key's backoff is reset and it is not queued again, so it
 * rests until an event or a trigger queues it (see {@link FailingKeys}).
 */
public enum ReconcileOutcome {

    /** The object was no longer in the cache: nothing was called, the key was forgotten. */
    GONE,
    /** {@code Result.done()}: the key's backoff was reset. */
    SUCCESS,
    /** {@code Result.requeue()}: queued again with the key's backoff. */
    REQUEUE,
    /** {@code Result.requeueAfter(d)}: backoff reset, queued again after {@code d}. */
    REQUEUE_AFTER,
    /** An exception: queued again with the key's backoff, for ever unless {@code max-attempts} is set. */
    ERROR,
    /** A {@code TerminalException}: recorded, forgotten, not retried until the object changes. */
    TERMINAL_ERROR,
    /** HTTP 409 from the API server: the cache was stale; queued again quietly after the key's conflict backoff. */
    CONFLICT,
    /** The reconcile ran past its timeout, was interrupted and ended by throwing; queued again with backoff. */
    TIMEOUT,
    /**
     * An error or a timeout that was the key's {@code max-attempts}-th failure in a row: recorded,
     * forgotten, not retried until the object changes or a trigger queues it.
     */
    RETRIES_EXHAUSTED;

    /** What becomes of a key on the work queue after a reconcile. */
    public enum QueueAction {
        /** Reset the key's backoff; the key is queued again only when its object changes. */
        FORGET,
        /** Reset the key's backoff and queue it again after the result's delay. */
        FORGET_AND_REQUEUE_AFTER_DELAY,
        /** Queue it again after the key's next backoff delay. */
        REQUEUE_WITH_BACKOFF,
        /** Queue it again after the key's next conflict backoff delay, leaving the rate limiter alone. */
        REQUEUE_WITH_CONFLICT_BACKOFF
    }

    /** The first conflict of a key waits this long; each further one in a row twice as long. */
    public static final Duration CONFLICT_BACKOFF_BASE = java.time.Duration.ofMillis(5);
    /** The longest wait after a conflict: a key another writer keeps changing is retried once a second. */
    public static final Duration CONFLICT_BACKOFF_MAX = java.time.Duration.ofSeconds(1);

    /** The queue action. */
    public QueueAction queueAction() {
        return switch (this) {
            case GONE, SUCCESS, TERMINAL_ERROR, RETRIES_EXHAUSTED -> QueueAction.FORGET;
            case REQUEUE_AFTER -> QueueAction.FORGET_AND_REQUEUE_AFTER_DELAY;
            case REQUEUE, ERROR, TIMEOUT -> QueueAction.REQUEUE_WITH_BACKOFF;
            case CONFLICT -> QueueAction.REQUEUE_WITH_CONFLICT_BACKOFF;
        };
    }

    /** Whether it counts as a failed reconcile: in the error metrics and the recent errors. */
    public boolean isError() {
        return switch (this) {
            case GONE, SUCCESS, REQUEUE, REQUEUE_AFTER -> false;
            case ERROR, TERMINAL_ERROR, CONFLICT, TIMEOUT, RETRIES_EXHAUSTED -> true;
        };
    }

    /**
     * Whether an interrupt can have produced it: a paused worker's reconcile that ended this way
     * decided nothing and is queued again at once, without backoff.
     */
    public boolean mayBeInterrupted() {
        return switch (this) {
            case REQUEUE, ERROR, CONFLICT, TIMEOUT, RETRIES_EXHAUSTED -> true;
            case GONE, SUCCESS, REQUEUE_AFTER, TERMINAL_ERROR -> false;
        };
    }

    /**
     * The {@code result} label of {@code controller_runtime_reconcile_total}, as controller-runtime's
     * {@code reconcileHandler} sets it; an object gone from the cache counts as a success, as a
     * Go reconciler that gets NotFound and returns nil does.
     */
    public String metricResult() {
        return switch (this) {
            case GONE, SUCCESS -> "success";
            case REQUEUE -> "requeue";
            case REQUEUE_AFTER -> "requeue_after";
            case ERROR, TERMINAL_ERROR, CONFLICT, TIMEOUT, RETRIES_EXHAUSTED -> "error";
        };
    }

    /** The outcome of a reconcile that returned {@code result} (null is the reconciler's bug: an error). */
    static ReconcileOutcome of(Result result) {
        if (result == null) {
            return ERROR;
        }
        return switch (result.kind()) {
            case DONE -> SUCCESS;
            case REQUEUE -> REQUEUE;
            case REQUEUE_AFTER -> REQUEUE_AFTER;
        };
    }

    /**
     * The outcome of a reconcile that threw {@code error}: a {@link TerminalException} is terminal;
     * an HTTP 409 Conflict anywhere in the cause chain means the cached object was stale when the
     * reconcile wrote, and the informer is about to deliver the newer one; anything else is an error,
     * {@link ForeignObjectException} too (a 409 that no newer cache fixes: retried with the key's
     * backoff while the other owner may go away).
     */
    static ReconcileOutcome of(Throwable error) {
        if (error instanceof TerminalException) {
            return TERMINAL_ERROR;
        }
        if (ApiRefusal.of(error).filter(ApiRefusal::foreign).isPresent()) {
            return ERROR;
        }
        return Causes.status(error, HttpURLConnection.HTTP_CONFLICT).isPresent() ? CONFLICT : ERROR;
    }
}
