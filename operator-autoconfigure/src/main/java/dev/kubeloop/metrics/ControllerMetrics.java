package dev.kubeloop.metrics;

import dev.kubeloop.runtime.controller.ControllerListener;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.controller.ReconcileReport;
import dev.kubeloop.runtime.controller.WriteOperation;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The pushed metrics of one controller: counters and histograms, all registered when the
 * controller is registered, so every series exists (at 0) before the first reconcile.
 *
 * <p>How a processed key maps onto {@code controller_runtime_reconcile_total{result}} and the error
 * counter is a column of the outcome table ({@link ReconcileOutcome#metricResult()},
 * {@link ReconcileOutcome#isError()}), following controller-runtime's {@code reconcileHandler};
 * terminal errors, timeouts and panics ({@link ReconcileReport#panic()}) are counted once more in
 * their own counters.
 *
 * <p>Thread-safety: the meters are thread-safe; the fields are final. Queue callbacks run under the
 * queue's lock and only increment or record.
 */
final class ControllerMetrics implements ControllerListener {

    /** controller-runtime's {@code controller_runtime_reconcile_time_seconds} buckets, in seconds. */
    static final double[] RECONCILE_TIME_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4,
        0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25,
        30, 40, 50, 60};

    /** client-go's work queue latency buckets: {@code prometheus.ExponentialBuckets(10e-9, 10, 12)}, 10 ns to 1000 s. */
    static final double[] WORKQUEUE_BUCKETS = {1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000};

    /** controller_runtime_reconcile_total by result label. */
    private final Map<String, Counter> results = new HashMap<>();
    private final Counter errors;
    private final Counter terminalErrors;
    private final Counter panics;
    private final Counter timeouts;
    private final Counter retriesExhausted;
    private final Timer reconcileTime;
    private final Counter adds;
    private final Counter retries;
    private final Timer queueDuration;
    private final Timer workDuration;
    private final Map<WriteOperation, Counter> writes = new EnumMap<>(WriteOperation.class);
    private final Map<WriteOperation, Counter> skippedWrites = new EnumMap<>(WriteOperation.class);
    private final Counter staleReadsAvoided;
    private final Counter staleReadsNotAvoided;
    private final Timer cacheLag;

    ControllerMetrics(MeterRegistry registry, String controller) {
        Tags controllerTag = Tags.of("controller", controller);
        for (ReconcileOutcome outcome : ReconcileOutcome.values()) {
            results.computeIfAbsent(outcome.metricResult(), result -> result(registry, controller, result));
        }
        errors = Counter.builder(KubeloopMetrics.RECONCILE_ERRORS)
                .description("Total number of reconciliation errors per controller")
                .tags(controllerTag).register(registry);
        terminalErrors = Counter.builder(KubeloopMetrics.TERMINAL_RECONCILE_ERRORS)
                .description("Total number of terminal reconciliation errors per controller")
                .tags(controllerTag).register(registry);
        panics = Counter.builder(KubeloopMetrics.RECONCILE_PANICS)
                .description("Total number of reconciliation panics per controller")
                .tags(controllerTag).register(registry);
        timeouts = Counter.builder(KubeloopMetrics.RECONCILE_TIMEOUTS)
                .description("Total number of reconciliation timeouts per controller")
                .tags(controllerTag).register(registry);
        retriesExhausted = Counter.builder(KubeloopMetrics.RETRIES_EXHAUSTED)
                .description("Total number of keys that failed max-attempts times in a row and rest per controller")
                .tags(controllerTag).register(registry);
        reconcileTime = Timer.builder(KubeloopMetrics.RECONCILE_TIME)
                .description("Length of time per reconciliation per controller")
                .serviceLevelObjectives(durations(RECONCILE_TIME_BUCKETS))
                .tags(controllerTag).register(registry);

        Tags queueTags = Tags.of("name", controller, "controller", controller);
        adds = Counter.builder(KubeloopMetrics.WORKQUEUE_ADDS)
                .description("Total number of adds handled by workqueue")
                .tags(queueTags).register(registry);
        retries = Counter.builder(KubeloopMetrics.WORKQUEUE_RETRIES)
                .description("Total number of retries handled by workqueue")
                .tags(queueTags).register(registry);
        queueDuration = Timer.builder(KubeloopMetrics.WORKQUEUE_QUEUE_DURATION)
                .description("How long in seconds an item stays in workqueue before being requested")
                .serviceLevelObjectives(durations(WORKQUEUE_BUCKETS))
                .tags(queueTags).register(registry);
        workDuration = Timer.builder(KubeloopMetrics.WORKQUEUE_WORK_DURATION)
                .description("How long in seconds processing an item from workqueue takes.")
                .serviceLevelObjectives(durations(WORKQUEUE_BUCKETS))
                .tags(queueTags).register(registry);

        for (WriteOperation operation : WriteOperation.values()) {
            Tags operationTags = controllerTag.and("operation", operation.label());
            writes.put(operation, Counter.builder(KubeloopMetrics.WRITES)
                    .description("Requests sent by the controller's writes through reconcile contexts")
                    .tags(operationTags).register(registry));
            skippedWrites.put(operation, Counter.builder(KubeloopMetrics.WRITES_SKIPPED)
                    .description("Writes not sent because the object already was as desired")
                    .tags(operationTags).register(registry));
        }
        staleReadsAvoided = staleReads(registry, controllerTag, true);
        staleReadsNotAvoided = staleReads(registry, controllerTag, false);
        cacheLag = Timer.builder(KubeloopMetrics.CACHE_LAG)
                .description("Time from a write's response to the informer's event of the written version")
                .serviceLevelObjectives(durations(RECONCILE_TIME_BUCKETS))
                .tags(controllerTag).register(registry);
    }

    private static Counter staleReads(MeterRegistry registry, Tags controllerTag, boolean avoided) {
        return Counter.builder(KubeloopMetrics.STALE_READS)
                .description("Reads that found the cache older than the controller's own write: avoided (the write "
                        + "was read) or not (read-your-writes off)")
                .tags(controllerTag.and("avoided", String.valueOf(avoided))).register(registry);
    }

    private static Counter result(MeterRegistry registry, String controller, String result) {
        return Counter.builder(KubeloopMetrics.RECONCILE_TOTAL)
                .description("Total number of reconciliations per controller")
                .tags("controller", controller, "result", result).register(registry);
    }

    private static Duration[] durations(double[] seconds) {
        return Arrays.stream(seconds).mapToObj(s -> Duration.ofNanos(Math.round(s * 1e9))).toArray(Duration[]::new);
    }

    @Override
    public void added(int priority) {
        adds.increment();
    }

    @Override
    public void dequeued(long queuedNanos) {
        queueDuration.record(queuedNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void done(long workNanos) {
        workDuration.record(workNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void retried() {
        retries.increment();
    }

    @Override
    public void written(WriteOperation operation, boolean skipped) {
        (skipped ? skippedWrites : writes).get(operation).increment();
    }

    @Override
    public void staleRead(boolean avoided) {
        (avoided ? staleReadsAvoided : staleReadsNotAvoided).increment();
    }

    @Override
    public void cacheCaughtUp(Duration lag) {
        cacheLag.record(lag);
    }

    @Override
    public void reconcileFinished(ReconcileReport report) {
        ReconcileOutcome outcome = report.outcome();
        reconcileTime.record(report.duration());
        results.get(outcome.metricResult()).increment();
        if (outcome.isError()) {
            errors.increment();
        }
        if (outcome == ReconcileOutcome.TERMINAL_ERROR) {
            terminalErrors.increment();
        }
        if (outcome == ReconcileOutcome.TIMEOUT) {
            timeouts.increment();
        }
        if (outcome == ReconcileOutcome.RETRIES_EXHAUSTED) {
            retriesExhausted.increment();
        }
        if (report.panic()) {
            panics.increment();
        }
    }
}
