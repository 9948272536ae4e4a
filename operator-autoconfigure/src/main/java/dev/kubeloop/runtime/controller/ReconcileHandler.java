package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.queue.ExponentialBackoffRateLimiter;
import dev.kubeloop.queue.PriorityWorkQueue;
import dev.kubeloop.queue.RateLimiter;
import dev.kubeloop.runtime.Tracing;
import dev.kubeloop.runtime.cache.ResourceCache;
import dev.kubeloop.runtime.client.FencedClients;
import dev.kubeloop.runtime.client.RequestFence;
import dev.kubeloop.runtime.client.ResourceCopies;
import dev.kubeloop.runtime.client.WriteTracker;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Processes one key a worker took from the queue, from the cache to the queue again
 * (controller-runtime's {@code reconcileHandler}): reads the latest object from the cache
 * (level-triggered: never the event that queued the key), gives the reconciler a private copy of
 * it, under the reconcile timeout and with the MDC set ({@code cleanup} instead when it is being
 * deleted; the {@link FinalizerProtocol} adds and removes the finalizer), classifies how it ended
 * ({@link ReconcileOutcome}), reports it (activity, listeners), applies the outcome's queue action
 * at the key's priority, and logs it.
 *
 * <p>Timeouts: the reconcile's thread is interrupted when its timeout fires. A reconcile that
 * still returns a {@link Result} is taken at its word (the interrupt arrived too late to matter,
 * or it chose to handle it), as controller-runtime takes a nil error after a context deadline;
 * one that ends by throwing after the timeout fired counts as {@link ReconcileOutcome#TIMEOUT}.
 *
 * <p>Thread-safety: immutable apart from the thread-safe parts it holds; called concurrently by
 * the controller's workers, never twice at once for one key (the queue guarantees that).
 */
final class ReconcileHandler<T extends HasMetadata> {

    static final String MDC_CONTROLLER = "controller";
    static final String MDC_KEY = "key";
    static final String MDC_RECONCILE_ID = "reconcileID";
    static final String RECONCILE_FAILED_REASON = "ReconcileFailed";

    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final ControllerConfig<T> config;
    private final ResourceReconciler<T> reconciler;
    private final PriorityWorkQueue<ObjectKey> queue;
    private final ResourceCache<T> cache;
    /** Every read of a reconcile: the caches as this controller's own writes left them. */
    private final ReadYourWritesReader reads;
    private final Set<Class<?>> ownedTypes;
    private final KubernetesClient client;
    private final EventRecorder events;
    private final ReconcileTimeouts timeouts;
    private final FinalizerProtocol<T> finalizers;
    private final Refusals refusals;
    private final ReconcileActivity activity;
    private final ControllerListener listener;
    private final ControllerWrites writes;
    private final WriteTracker tracker;
    private final ReconcileFence fence;
    private final FencedClients fencedClients;
    private final FailingKeys failing;
    private final FailureStatus<T> failureStatus;
    private final ForeignBlockers blockers;
    /**
     * Each key's conflicts since its last success, apart from the queue's rate limiter (see
     * {@link ReconcileOutcome}); a key's retry count is its failures of both kinds.
     */
    private final RateLimiter<ObjectKey> conflictBackoff = new ExponentialBackoffRateLimiter<>(
            ReconcileOutcome.CONFLICT_BACKOFF_BASE, ReconcileOutcome.CONFLICT_BACKOFF_MAX);
    private final Logger reconcilerLog;
    /** The one reconcile more for a status that may describe a read from before the reconcile's own change. */
    private final StaleStatusRequeues staleStatusRequeues = new StaleStatusRequeues();
    private final Tracing tracing;
    /** Why each key was queued; null when tracing is off. */
    private final QueueCauses causes;

    ReconcileHandler(ControllerConfig<T> config, ResourceReconciler<T> reconciler, PriorityWorkQueue<ObjectKey> queue,
            ResourceCache<T> cache, ControllerCaches caches, Set<Class<?>> ownedTypes, KubernetesClient client,
            EventRecorder events, ReconcileTimeouts timeouts, FinalizerProtocol<T> finalizers,
            ReconcileActivity activity, ControllerListener listener, ControllerWrites writes, WriteTracker tracker,
            ReconcileFence fence, FencedClients fencedClients, FailingKeys failing, ForeignBlockers blockers,
            Logger reconcilerLog, Tracing tracing, QueueCauses causes) {
        this.config = config;
        this.reconciler = reconciler;
        this.queue = queue;
        this.cache = cache;
        this.reads = new ReadYourWritesReader(caches, tracker, config.declarations());
        this.ownedTypes = Set.copyOf(ownedTypes);
        this.client = client;
        this.events = events;
        this.timeouts = timeouts;
        this.finalizers = finalizers;
        this.refusals = new Refusals(config.name(), events);
        this.activity = activity;
        this.listener = listener;
        this.writes = writes;
        this.tracker = tracker;
        this.fence = fence;
        this.fencedClients = fencedClients;
        this.failing = failing;
        this.failureStatus = new FailureStatus<>(config.name(), reconciler, writes, client.getKubernetesSerialization(),
                failing);
        this.blockers = blockers;
        this.reconcilerLog = reconcilerLog;
        this.tracing = tracing;
        this.causes = causes;
    }

    /**
     * Reconciles {@code key}, handed out at {@code priority}, and puts it back on the queue as its
     * outcome says; the caller calls {@code done} afterwards.
     *
     * @param paused true if the workers were paused meanwhile (leader election): an outcome an
     *     interrupt may have caused then decided nothing, and the key is queued again at once
     */
    @SuppressWarnings("try") // the scope is held for its effect: the span current while it is open
    void handle(ObjectKey key, int priority, BooleanSupplier paused) {
        int retries = queue.numRequeues(key) + conflictBackoff.numRequeues(key);
        if (causes == null) {
            process(key, priority, paused, retries, null);
            return;
        }
        // traced: the span is current from the cache read to the requeue, so that the metrics recorded on
        // the way (reconcile_time_seconds) carry its exemplar and every log line its trace id
        Tracing.Span span = ReconcileSpans.start(tracing, causes, config.name(), key, cache.get(key).orElse(null),
                priority, retries);
        ReconcileReport report = null;
        try (Tracing.Scope scope = span.open()) {
            report = process(key, priority, paused, retries, span);
        } finally {
            span.end(report == null ? "panic" : ReconcileSpans.outcome(report.outcome()),
                    report == null ? null : report.error());
        }
    }

    /** {@link #handle}, with the reconcile's span (null when untraced); returns what it reported. */
    private ReconcileReport process(ObjectKey key, int priority, BooleanSupplier paused, int retries,
            Tracing.Span span) {
        long startNanos = activity.started(key);
        failing.started(key);
        T object = null;
        ReconcileOutcome outcome;
        Duration delay = Duration.ZERO;
        Throwable error = null;
        boolean statusMayBeStale = false;
        try {
            listener.reconcileStarted(key);
            T cached = cache.get(key).orElse(null);
            // sharding: another replica's primary (its bucket is not held here, or is being handed over) is not ours
            ReconcileFence.Permit permit = cached == null ? null : fence.enter(cached);
            if (permit == null) {
                outcome = ReconcileOutcome.GONE;
            } else {
                // every write of this reconcile leaves only while the permit holds (a paused replica's do not)
                try (permit; RequestFence requests = span == null ? fencedClients.open(permit::holds)
                        : fencedClients.open(permit::holds, span)) {
                    // read-your-writes: never start on a cache older than the previous reconcile's own writes
                    T current = tracker.fresher(WriteTracker.Ref.of(cached), cached).orElse(cached);
                    object = ResourceCopies.deepCopy(client.getKubernetesSerialization(), current);
                    // the scope starts from the shared read-only version: the reconciler changes its copy, not that one
                    ControllerWrites.Scope scope = writes.scope(current, requests.client(), span);
                    ReconcileContext<T> context = new DefaultReconcileContext<>(config.name(), key, retries,
                            object.getMetadata().getUid(), requests.client(), reads, ownedTypes, events,
                            reconcilerLog, writes, scope);
                    Result result = null;
                    boolean timedOut;
                    MDC.put(MDC_CONTROLLER, config.name());
                    MDC.put(MDC_KEY, key.toString());
                    MDC.put(MDC_RECONCILE_ID, ReconcileIds.next());
                    try {
                        ReconcileTimeouts.Deadline deadline = timeouts.start(config.reconcileTimeout());
                        try {
                            result = invoke(object, context, scope, requests.client());
                            if (result == null) {
                                error = new IllegalStateException("the reconciler returned null instead of a Result");
                            }
                        } catch (Throwable e) { // a worker must survive anything the reconciler throws
                            error = e;
                        } finally {
                            timedOut = deadline.finish();
                        }
                        if (error == null) {
                            outcome = ReconcileOutcome.of(result);
                            delay = result.delay();
                        } else {
                            outcome = timedOut ? ReconcileOutcome.TIMEOUT : ReconcileOutcome.of(error);
                        }
                        if (!paused.getAsBoolean() || !outcome.mayBeInterrupted()) {
                            outcome = afterwards(key, outcome, error, object, scope, context);
                        }
                        statusMayBeStale = scope.statusBasis().statusMayBeStale();
                    } finally {
                        MDC.remove(MDC_CONTROLLER);
                        MDC.remove(MDC_KEY);
                        MDC.remove(MDC_RECONCILE_ID);
                    }
                }
            }
        } finally {
            activity.released(key);
        }
        ReconcileReport report = new ReconcileReport(config.name(), key, outcome, delay, error,
                Duration.ofNanos(System.nanoTime() - startNanos), retries, priority);
        activity.finished(report);
        listener.reconcileFinished(report);
        if (paused.getAsBoolean() && outcome.mayBeInterrupted()) {
            // most likely cut short by the pause: retry at once when work resumes, not after a backoff
            note(key, "retry", Duration.ZERO, span);
            queue.add(key, priority);
            log.info("Reconcile interrupted because the workers were paused; the key stays queued: controller={} "
                    + "key={}", config.name(), key);
            return report;
        }
        if (report.outcome() == ReconcileOutcome.ERROR || report.outcome() == ReconcileOutcome.RETRIES_EXHAUSTED) {
            // before the key is back on the queue, so that the blocker's deletion from now on wakes it
            ForeignBlockers.in(error).ifPresent(foreign -> blockers.blocked(key, foreign));
        }
        requeue(report, span);
        if (staleStatusRequeues.queueAgain(key, statusMayBeStale, outcome)) {
            // there the echo of the reconcile's own change would reconcile again and correct its status: here once, now
            note(key, "requeue", Duration.ZERO, span);
            queue.add(key, report.priority());
            log.debug("Status may describe a read from before its own change, reconciling again: controller={} key={}",
                    config.name(), key);
        }
        report(report, object);
        return report;
    }

    /** Tells the reconcile that takes {@code key} next why: a retry continues {@code span}'s trace. */
    private void note(ObjectKey key, String cause, Duration delay, Tracing.Span span) {
        if (causes != null) {
            causes.note(key, cause, delay, "retry".equals(cause) && span != null ? span.traceparent() : null);
        }
    }

    /**
     * What the runtime does about a reconcile's failures before the key goes back to the queue,
     * with the reconcile's own writes: counts them towards {@code max-attempts} (the last one
     * becomes {@link ReconcileOutcome#RETRIES_EXHAUSTED}), writes the reconciler's error status and
     * the Stalled condition ({@link FailureStatus}), and clears them when a reconcile succeeds.
     *
     * @return the outcome, or {@code RETRIES_EXHAUSTED} if this failure used up the key's attempts
     */
    private ReconcileOutcome afterwards(ObjectKey key, ReconcileOutcome outcome, Throwable error, T object,
            ControllerWrites.Scope scope, ReconcileContext<T> context) {
        boolean deleting = object.isMarkedForDeletion();
        return switch (outcome) {
            case SUCCESS, REQUEUE, REQUEUE_AFTER -> {
                failing.succeeded(key);
                if (!deleting) {
                    failureStatus.succeeded(key, scope);
                }
                yield outcome;
            }
            case ERROR, TIMEOUT, TERMINAL_ERROR -> {
                if (error instanceof Exception exception && !deleting) {
                    failureStatus.failed(key, scope, context, exception);
                }
                yield outcome == ReconcileOutcome.TERMINAL_ERROR ? terminal(key) : counted(key, outcome, error,
                        deleting, scope);
            }
            case GONE, CONFLICT, RETRIES_EXHAUSTED -> outcome;
        };
    }

    /** A terminal error is not retried: there are no attempts to count. */
    private ReconcileOutcome terminal(ObjectKey key) {
        failing.terminal(key);
        return ReconcileOutcome.TERMINAL_ERROR;
    }

    /** Counts a failure towards {@code max-attempts}; the one that uses them up makes the key rest. */
    private ReconcileOutcome counted(ObjectKey key, ReconcileOutcome outcome, Throwable error, boolean deleting,
            ControllerWrites.Scope scope) {
        int failures = failing.failed(key);
        if (!failing.exhausted(failures)) {
            return outcome;
        }
        failing.rest(key);
        if (!deleting) {
            failureStatus.exhausted(key, scope, failures, error);
        }
        return ReconcileOutcome.RETRIES_EXHAUSTED;
    }

    /**
     * The reconcile itself, on {@code object} (the reconciler's private copy of the scope's primary):
     * {@code cleanup} for an object being deleted, else the finalizer if it is missing and
     * {@code reconcile}; then pruning of what the reconcile no longer applies.
     */
    private Result invoke(T object, ReconcileContext<T> context, ControllerWrites.Scope scope,
            KubernetesClient fenced) throws Exception {
        if (object.isMarkedForDeletion()) {
            return finalizers.cleanup(object, context, fenced, writes.finalizerSender(scope), () -> primary(scope));
        }
        T withFinalizer = finalizers.beforeReconcile(object, fenced, writes.finalizerSender(scope));
        Result result = reconciler.reconcile(withFinalizer, context);
        if (result != null && (result.kind() == Result.Kind.DONE || result.kind() == Result.Kind.REQUEUE_AFTER)) {
            writes.prune(scope, ownedTypes, object.getMetadata().getUid());
        }
        return result;
    }

    /** The primary as this reconcile's own writes left it (or as it started). */
    @SuppressWarnings("unchecked")
    private T primary(ControllerWrites.Scope scope) {
        return (T) scope.primary();
    }

    /** The outcome's queue action, at the priority the key was handed out at. */
    private void requeue(ReconcileReport report, Tracing.Span span) {
        ObjectKey key = report.key();
        switch (report.outcome().queueAction()) {
            case FORGET -> {
                queue.forget(key);
                conflictBackoff.forget(key);
            }
            case FORGET_AND_REQUEUE_AFTER_DELAY -> {
                queue.forget(key);
                conflictBackoff.forget(key);
                note(key, "requeue", report.delay(), span);
                queue.addAfter(key, report.delay(), report.priority());
            }
            case REQUEUE_WITH_BACKOFF -> {
                // the limiter picks the delay inside the queue: a retry's wait includes its backoff
                note(key, "retry", Duration.ZERO, span);
                queue.addRateLimited(key, report.priority());
            }
            case REQUEUE_WITH_CONFLICT_BACKOFF -> {
                Duration backoff = conflictBackoff.when(key);
                note(key, "retry", backoff, span);
                queue.addAfter(key, backoff, report.priority());
            }
        }
    }

    /**
     * Logs the outcome (one line per reconcile that matters) and records its Events; refusals (403,
     * 400, 422) go to {@link Refusals}.
     */
    private void report(ReconcileReport report, T object) {
        ObjectKey key = report.key();
        int retries = report.retries();
        Throwable error = report.error();
        switch (report.outcome()) {
            case GONE -> {
                refusals.forget(key);
                failing.forget(key);
                blockers.forget(key);
                log.debug("Object gone, nothing to reconcile: controller={} key={}", config.name(), key);
            }
            case SUCCESS, REQUEUE, REQUEUE_AFTER -> {
                refusals.succeeded(key, retries);
                blockers.forget(key);
                // controller-runtime's "Reconcile successful" (its debug level): which keys ran, when, and on what
                if (log.isDebugEnabled()) {
                    log.debug("Reconciled: controller={} key={} outcome={} delay={} took={}ms resourceVersion={}",
                            config.name(), key, report.outcome(), report.delay(), report.duration().toMillis(),
                            object == null ? null : object.getMetadata().getResourceVersion());
                }
            }
            case CONFLICT -> log.debug("Conflict, requeued: controller={} key={} retry={}: {}", config.name(), key,
                    retries, error.getMessage());
            case TIMEOUT -> log.warn("Reconcile timed out after {} ms and was interrupted, retrying: controller={} "
                    + "key={} retry={}", config.reconcileTimeout().toMillis(), config.name(), key, retries);
            case TERMINAL_ERROR -> {
                refusals.forget(key);
                blockers.forget(key);
                events.warning(object, RECONCILE_FAILED_REASON, String.valueOf(error.getMessage()));
                log.error("Reconcile failed terminally, not retrying: controller={} key={}: {}", config.name(), key,
                        error.getMessage());
                log.debug("Terminal error stack trace: controller={} key={}", config.name(), key, error);
            }
            case RETRIES_EXHAUSTED -> {
                refusals.forget(key);
                String message = FailureStatus.message(config.maxAttempts(), error);
                events.warning(object, FailureStatus.RETRIES_EXHAUSTED, message);
                log.error("Reconcile failed {} times in a row, not retrying until the object changes: controller={} "
                        + "key={}: {}", config.maxAttempts(), config.name(), key, error.toString());
                log.debug("Stack trace: controller={} key={}", config.name(), key, error);
            }
            case ERROR -> {
                if (refusals.failed(key, object, retries, error)) {
                    return;
                }
                if (retries == 0) {
                    log.error("Reconcile failed, retrying with backoff: controller={} key={} retry={}: {}",
                            config.name(), key, retries, error.toString(), error);
                } else {
                    log.error("Reconcile failed, retrying with backoff: controller={} key={} retry={}: {}",
                            config.name(), key, retries, error.toString());
                    log.debug("Stack trace: controller={} key={}", config.name(), key, error);
                }
            }
        }
    }
}
