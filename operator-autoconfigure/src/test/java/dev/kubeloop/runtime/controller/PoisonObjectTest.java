package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Result;
import dev.kubeloop.introspection.Introspection;
import dev.kubeloop.metrics.KubeloopMetrics;
import dev.kubeloop.queue.ExponentialBackoffRateLimiter;
import dev.kubeloop.queue.MaxOfRateLimiter;
import dev.kubeloop.queue.TokenBucketRateLimiter;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.CapturedLogs;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.PrometheusText;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.RecordingReconciler.Call;
import dev.kubeloop.testing.SteadyUpdates;
import dev.kubeloop.testing.SteadyUpdates.Update;
import dev.kubeloop.testing.Widget;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One object whose reconcile always fails, among a thousand healthy ones whose specs change at a
 * steady rate: it backs off exponentially, holds at most one worker at a time, shows in the recent
 * errors and the error metrics, logs one line per attempt (so logarithmically many, one stack
 * trace), and the healthy objects all converge. Their event-to-reconcile latency is measured
 * without and with it, and printed, not asserted.
 */
class PoisonObjectTest extends MockClusterTestSupport {

    private static final String NS = "ns";
    private static final String POISON = "poison";
    private static final String POISON_KEY = NS + "/" + POISON;
    private static final int HEALTHY = 1000;
    private static final int WORKERS = 4;
    private static final int UPDATES = 500;
    private static final int UPDATES_PER_SECOND = 100;
    private static final int WARM_UP = 200;
    /** The poison object's reconcile works this long, then throws: long enough for two workers to overlap. */
    private static final Duration POISON_WORK = Duration.ofMillis(50);
    /** {@code kubeloop.rate-limiter.base-delay} here: attempts at 0, 0.1, 0.3, 0.7, 1.5, 3.1, 6.3 s (plus work). */
    private static final Duration BASE = Duration.ofMillis(100);
    private static final int POISON_ATTEMPTS = 7;

    private final Map<String, Long> highestGenerationSeen = new ConcurrentHashMap<>();
    private final AtomicInteger poisonInFlight = new AtomicInteger();
    private final AtomicInteger poisonMostInFlight = new AtomicInteger();
    private PrometheusMeterRegistry registry;
    private CapturedLogs logs;

    @BeforeEach
    void managerWithMetricsAndA100msBackoff() {
        logs = CapturedLogs.of(Controller.class, Level.WARN);
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        manager.stop();
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5))
                .observer(new KubeloopMetrics(registry))
                .rateLimiter(() -> new MaxOfRateLimiter<>(new ExponentialBackoffRateLimiter<>(BASE,
                        Duration.ofSeconds(1000)), new TokenBucketRateLimiter<>(10, 100)))
                .build();
    }

    @AfterEach
    void stopBeforeClosingLogsAndRegistry() {
        manager.stop();
        logs.close();
        registry.close();
    }

    private Result reconcile(Widget widget, ReconcileContext<Widget> context) throws InterruptedException {
        highestGenerationSeen.merge(context.key().toString(), widget.getMetadata().getGeneration(), Math::max);
        if (!widget.getMetadata().getName().equals(POISON)) {
            return Result.done();
        }
        poisonMostInFlight.accumulateAndGet(poisonInFlight.incrementAndGet(), Math::max);
        try {
            Thread.sleep(POISON_WORK.toMillis()); // simulated work before it fails
            throw new IllegalStateException("spec of " + POISON + " can never be reconciled");
        } finally {
            poisonInFlight.decrementAndGet();
        }
    }

    @Test
    void aPoisonObjectBacksOffExponentiallyHoldsOneWorkerAtMostAndTheHealthyOnesAllConverge() throws Exception {
        List<String> healthy = IntStream.range(0, HEALTHY).mapToObj(i -> String.format("w-%04d", i)).toList();
        healthy.forEach(name -> client.resource(Widget.named(NS, name)).create());
        RecordingReconciler reconciler = new RecordingReconciler().behaving(this::reconcile);
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .workers(WORKERS).build(), reconciler);
        manager.start();
        eventually().until(() -> highestGenerationSeen.size() == HEALTHY && controller.queueStats().idle());

        latenciesUnderLoad(reconciler, healthy, WARM_UP, 0L); // so that the first measured run is not the JIT's
        Measured without = latenciesUnderLoad(reconciler, healthy, UPDATES, 1L);
        client.resource(Widget.named(NS, POISON)).create();
        eventually().until(() -> reconciler.count(POISON_KEY) >= 1);
        Measured with = latenciesUnderLoad(reconciler, healthy, UPDATES, 2L);
        eventually().until(() -> controller.count(ReconcileOutcome.ERROR) >= POISON_ATTEMPTS);

        // every healthy object was reconciled at the generation it has now
        eventually().pollInterval(Duration.ofMillis(250)).untilAsserted(() -> assertThat(client.resources(Widget.class)
                .inNamespace(NS).list().getItems())
                .filteredOn(widget -> !widget.getMetadata().getName().equals(POISON))
                .hasSize(HEALTHY)
                .allSatisfy(widget -> assertThat(highestGenerationSeen.get(NS + "/" + widget.getMetadata().getName()))
                        .isEqualTo(widget.getMetadata().getGeneration())));

        // backoff: attempt n + 1 starts at least base * 2^(n - 1) after attempt n; never two at once.
        // An attempt may end while this reads: its count is raised before its recent error and metrics, and
        // its log line comes after it was recorded as started, so the lines are read first.
        List<ILoggingEvent> poisonLines = logs.events(Level.WARN, "key=" + POISON_KEY);
        long errorsBefore = controller.count(ReconcileOutcome.ERROR) - 1;
        ControllerStatus status = controller.status();
        PrometheusText metrics = PrometheusText.parse(registry.scrape());
        List<Call> attempts = reconciler.callsFor(POISON_KEY);
        long errorsAfter = controller.count(ReconcileOutcome.ERROR);
        List<Long> gapsMillis = new ArrayList<>();
        for (int i = 1; i < attempts.size(); i++) {
            Duration gap = Duration.ofNanos(attempts.get(i).startedNanos() - attempts.get(i - 1).startedNanos());
            assertThat(attempts.get(i).retryCount()).isEqualTo(i);
            assertThat(gap).as("gap before attempt %d", i + 1).isGreaterThanOrEqualTo(BASE.multipliedBy(1L << (i - 1)));
            gapsMillis.add(gap.toMillis());
        }
        assertThat(poisonMostInFlight).as("workers the poison object held at once").hasValue(1);
        assertThat(status.aliveWorkers()).isEqualTo(WORKERS);
        assertThat(status.broken()).isFalse();

        // only the poison object failed, and it shows where an operator looks: status, metrics, actuator
        assertThat(status.recentErrors()).isNotEmpty().allSatisfy(error -> {
            assertThat(error.key().toString()).isEqualTo(POISON_KEY);
            assertThat(error.outcome()).isEqualTo(ReconcileOutcome.ERROR);
            assertThat(error.error()).isEqualTo(IllegalStateException.class.getName());
        });
        assertThat((long) status.recentErrors().get(0).attempt()).isBetween(errorsBefore, errorsAfter);
        assertThat(metrics.value("controller_runtime_reconcile_errors_total", "controller", "widget"))
                .hasValueSatisfying(errors -> assertThat(errors.longValue()).isBetween(errorsBefore, errorsAfter));
        assertThat(metrics.value("controller_runtime_reconcile_total", "controller", "widget", "result", "error"))
                .hasValueSatisfying(errors -> assertThat(errors.longValue()).isBetween(errorsBefore, errorsAfter));
        assertThat(metrics.value("controller_runtime_reconcile_panics_total", "controller", "widget")).contains(0.0);
        Object lastErrors = new Introspection(manager).controller("widget").orElseThrow().get("lastErrors");
        assertThat((List<?>) lastErrors).as("/actuator/kubeloop/widget lastErrors").isNotEmpty().allSatisfy(error -> {
            assertThat(((Map<?, ?>) error).get("key")).isEqualTo(POISON_KEY);
            assertThat(((Map<?, ?>) error).get("outcome")).isEqualTo("error");
        });

        // one line per attempt at most, the stack trace only on the first: logarithmic in time
        Duration span = Duration.ofNanos(attempts.get(attempts.size() - 1).startedNanos()
                - attempts.get(0).startedNanos());
        double mostAttemptsBackoffAllows = 1 + Math.log((double) span.toNanos() / BASE.toNanos() + 1) / Math.log(2);
        assertThat(poisonLines).isNotEmpty().hasSizeLessThanOrEqualTo(attempts.size());
        assertThat((double) poisonLines.size()).isLessThanOrEqualTo(mostAttemptsBackoffAllows);
        assertThat(poisonLines.get(0).getThrowableProxy()).as("first failure's stack trace").isNotNull();
        assertThat(poisonLines.subList(1, poisonLines.size())).allSatisfy(line ->
                assertThat(line.getThrowableProxy()).as("stack trace on a retry").isNull());
        assertThat(logs.events(Level.WARN, "key=" + NS + "/w-")).as("lines about healthy objects").isEmpty();

        System.out.printf("[reliability] poison-object: %d healthy objects + 1 whose reconcile always fails (after "
                + "%d ms), %d spec updates per run at %d/s (sent at %.0f/s and %.0f/s) after %d to warm up, %d "
                + "workers, backoff base %d ms: converged %d/%d, every update reconciled; healthy event-to-reconcile "
                + "without the poison object p50 %.1f ms p99 %.1f ms, with it p50 %.1f ms p99 %.1f ms; poison "
                + "object: %d attempts in %.1f s (gaps %s ms), at most 1 worker, %d log lines (1 stack trace), in "
                + "recent errors, lastErrors and reconcile_errors_total%n", HEALTHY, POISON_WORK.toMillis(), UPDATES,
                UPDATES_PER_SECOND, without.sentPerSecond(), with.sentPerSecond(), WARM_UP, WORKERS, BASE.toMillis(),
                HEALTHY, HEALTHY,
                without.percentileMillis(50), without.percentileMillis(99), with.percentileMillis(50),
                with.percentileMillis(99), attempts.size(), span.toMillis() / 1000.0, gapsMillis, poisonLines.size());
    }

    /**
     * Changes healthy objects' specs at a steady rate, waits until each change was reconciled, and
     * returns, per change, how long (ns) from sending it until a reconcile saw its generation.
     */
    private Measured latenciesUnderLoad(RecordingReconciler reconciler, List<String> healthy, int changes, long seed)
            throws Exception {
        List<Update> updates;
        Duration sending;
        try (SteadyUpdates load = SteadyUpdates.start(client, NS, healthy, UPDATES_PER_SECOND, changes, seed)) {
            assertThat(load.await(Duration.ofSeconds(60))).as("updates sent").isTrue();
            assertThat(load.failures()).as("updates refused").isEmpty();
            updates = load.updates();
            sending = load.elapsed();
        }
        Map<String, Long> latest = new HashMap<>();
        updates.forEach(update -> latest.merge(update.key(), update.generation(), Math::max));
        eventually().pollInterval(Duration.ofMillis(100)).untilAsserted(() -> assertThat(latest)
                .allSatisfy((key, generation) -> assertThat(highestGenerationSeen.get(key))
                        .as(key).isGreaterThanOrEqualTo(generation)));

        Map<String, List<Call>> callsByKey = new HashMap<>();
        for (Call call : reconciler.calls()) {
            callsByKey.computeIfAbsent(call.key(), key -> new ArrayList<>()).add(call);
        }
        List<Long> latencies = new ArrayList<>();
        for (Update update : updates) {
            callsByKey.getOrDefault(update.key(), List.of()).stream()
                    .filter(call -> call.generation() != null && call.generation() >= update.generation())
                    .findFirst()
                    .ifPresent(call -> latencies.add(call.startedNanos() - update.sentNanos()));
        }
        assertThat(latencies).as("changes a reconcile saw").hasSize(updates.size());
        return new Measured(latencies, updates.size() / Math.max(1e-3, sending.toNanos() / 1e9));
    }

    /** One run under load: each change's event-to-reconcile latency (ns), and the rate the changes went out at. */
    private record Measured(List<Long> latencies, double sentPerSecond) {
        double percentileMillis(int percentile) {
            List<Long> sorted = latencies.stream().sorted().toList();
            return sorted.get(Math.max(0, (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1)) / 1e6;
        }
    }
}
