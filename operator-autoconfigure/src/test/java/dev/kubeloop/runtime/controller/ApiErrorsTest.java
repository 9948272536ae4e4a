package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Result;
import dev.kubeloop.health.KubeloopHealthIndicator;
import dev.kubeloop.metrics.KubeloopMetrics;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.ApiError;
import dev.kubeloop.testing.ApiFaults.Fault;
import dev.kubeloop.testing.CapturedLogs;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.PrometheusText;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.RecordingReconciler.Call;
import dev.kubeloop.testing.SteadyUpdates;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;

/**
 * Reconciles that write {@code status.observedGeneration} on many objects under continuous spec
 * changes while the API server answers a tenth of the status writes with 429, a tenth with 500 and
 * a tenth with 409: nothing crashes, no update is lost, every failure is counted, and it shows who
 * retried what.
 *
 * <p>fabric8 7.8.0's HTTP client retries 429 and every 5xx itself, inside the reconcile's write
 * ({@code requestRetryBackoffLimit}, default 10 retries, {@code requestRetryBackoffInterval} 100 ms
 * doubling up to 3.2 s; it reads {@code Retry-After} but waits its own interval). So with the
 * client as the operator builds it, 429 and 500 never reach the work queue, and 409 (which the
 * client does not retry) is retried by the work queue with the key's conflict backoff, which spends
 * nothing of the rate limiter. With the client's retries off, the work queue retries everything.
 *
 * <p>Backoff is checked on the "quiet" objects: after the start they get exactly one spec change,
 * so every further reconcile of theirs is a work queue retry (a "busy" object's retry may be cut
 * short by its next change, as it should be). One quiet object gets six conflicts in a row, so the
 * check never runs on nothing.
 */
class ApiErrorsTest extends MockClusterTestSupport {

    private static final String NS = "ns";
    private static final String STATUS = "/apis/kubeloop\\.dev/v1/namespaces/ns/widgets/[^/]+/status";
    private static final Pattern STATUS_PATH = Pattern.compile(STATUS);
    private static final int BUSY = 60;
    private static final int QUIET = 60;
    private static final int UPDATES = 300;
    private static final int UPDATES_PER_SECOND = 80;
    private static final double FRACTION = 0.1;
    private static final String PROBE = "quiet-000";
    private static final int PROBE_CONFLICTS = 6;
    private static final int WORKERS = 4;
    /** The default rate limiter's base delay ({@code kubeloop.rate-limiter.base-delay}). */
    private static final Duration BASE = Duration.ofMillis(5);
    private static final Duration CONVERGE_DEADLINE = Duration.ofSeconds(60);

    private final AtomicInteger writes = new AtomicInteger();
    /** Whether the call of key@retryCount ended in a 409: its retry waits for the conflict backoff. */
    private final Map<String, Boolean> endedInConflict = new ConcurrentHashMap<>();
    private final List<String> busy = names("busy", BUSY);
    private final List<String> quiet = names("quiet", QUIET);
    /** The failures are provoked: counted here, not printed. */
    private final CapturedLogs logs = CapturedLogs.of(Controller.class, Level.WARN);
    private PrometheusMeterRegistry registry;
    private KubernetesClient operatorClient;

    @AfterEach
    void stopBeforeClosingTheirClientAndRegistry() {
        manager.stop();
        if (operatorClient != null && operatorClient != client) {
            operatorClient.close();
        }
        if (registry != null) {
            registry.close();
        }
        logs.close();
    }

    @Test
    void theClientRetriesThrottlingAndServerErrorsTheWorkQueueRetriesConflictsAndEveryObjectConverges()
            throws Exception {
        Run run = run(client);

        run.assertHealthyCountedAndBackedOff();
        assertThat(run.patchRequests).as("status PATCHes sent: every write, plus one client retry per 429 and 500")
                .isEqualTo(run.statusWrites + run.throttled.injected() + run.failing.injected());
        assertThat(run.errors).as("429 and 500 that reached the work queue").isZero();
        assertThat(run.conflicts).isGreaterThanOrEqualTo(run.conflicting.injected() + PROBE_CONFLICTS);
        assertThat(logs.events()).as("lines logged: none, conflicts are retried quietly").isEmpty();

        List<Long> clientRetryDelays = clientRetryDelaysMillis(run.throttled);
        System.out.printf("[reliability] api-errors, client retries on (fabric8 default): %s; retried by the "
                + "client %d (each 429 and 500 once; after a 429 p50 %d ms, max %d ms), by the work queue %d (%d "
                + "conflicts, %d errors); converged %.1f s after the last update%n", run.describe(),
                run.patchRequests - run.statusWrites, percentile(clientRetryDelays, 50),
                percentile(clientRetryDelays, 100), (long) run.queueRetries, run.conflicts, run.errors,
                run.convergeAfterLastUpdate.toMillis() / 1000.0);
    }

    @Test
    void withTheClientsRetriesOffTheWorkQueueRetriesEveryErrorWithBackoffAndEveryObjectConverges() throws Exception {
        Run run = run(cluster.newClient(builder -> builder.editOrNewConfig().withRequestRetryBackoffLimit(0)
                .endConfig()));

        run.assertHealthyCountedAndBackedOff();
        assertThat(run.patchRequests).as("status PATCHes sent: exactly the writes").isEqualTo(run.statusWrites);
        assertThat(run.errors).as("every 429 and 500 is a failed reconcile")
                .isEqualTo(run.throttled.injected() + run.failing.injected());
        assertThat(run.conflicts).isGreaterThanOrEqualTo(run.conflicting.injected() + PROBE_CONFLICTS);
        assertThat(logs.events()).as("lines logged: one per failed reconcile, none for conflicts")
                .hasSize((int) run.errors).allSatisfy(line -> assertThat(line.getLevel()).isEqualTo(Level.ERROR));

        System.out.printf("[reliability] api-errors, client retries off (requestRetryBackoffLimit=0): %s; "
                + "retried by the client 0, by the work queue %d (%d errors, %d conflicts), backoff checked on %d "
                + "retries; converged %.1f s after the last update%n", run.describe(), (long) run.queueRetries,
                run.errors, run.conflicts, run.backoffsChecked, run.convergeAfterLastUpdate.toMillis() / 1000.0);
    }

    /**
     * Creates the objects, lets the operator (on {@code operatorClient}) write every status once,
     * then turns the faults on, changes each quiet object once and the busy ones at a steady rate,
     * and waits until every status has caught up, faults still on.
     */
    private Run run(KubernetesClient operatorClient) throws Exception {
        this.operatorClient = operatorClient;
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        manager.stop();
        manager = ControllerManager.builder(operatorClient).shutdownTimeout(Duration.ofSeconds(5))
                .observer(new KubeloopMetrics(registry)).build();
        Stream.concat(busy.stream(), quiet.stream()).forEach(name -> client.resource(Widget.named(NS, name)).create());
        RecordingReconciler reconciler = new RecordingReconciler().behaving(this::observeGeneration);
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .workers(WORKERS).build(), reconciler);
        manager.start();
        awaitConverged(controller);

        Run run = new Run(controller, reconciler);
        run.throttled = cluster.faults().on("PATCH", STATUS).fraction(FRACTION).answer(ApiError.tooManyRequests(1));
        run.failing = cluster.faults().on("PATCH", STATUS).fraction(FRACTION).answer(ApiError.internalError());
        run.conflicting = cluster.faults().on("PATCH", STATUS).fraction(FRACTION).answer(ApiError.conflict());
        Fault probe = cluster.faults().on("PATCH", STATUS.replace("[^/]+", PROBE)).next(PROBE_CONFLICTS)
                .answer(ApiError.conflict());
        for (String name : quiet) {
            client.resources(Widget.class).inNamespace(NS).withName(name)
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"size\":-1}}");
        }
        try (SteadyUpdates load = SteadyUpdates.start(client, NS, busy, UPDATES_PER_SECOND, UPDATES, 1L)) {
            assertThat(load.await(CONVERGE_DEADLINE)).as("updates sent").isTrue();
            assertThat(load.failures()).as("updates refused").isEmpty();
            run.sentPerSecond = UPDATES / Math.max(1e-3, load.elapsed().toNanos() / 1e9);
        }
        long lastUpdate = System.nanoTime();
        awaitConverged(controller);
        run.convergeAfterLastUpdate = Duration.ofNanos(System.nanoTime() - lastUpdate);
        cluster.faults().off();
        assertThat(probe.injected()).isEqualTo(PROBE_CONFLICTS);
        run.collect();
        return run;
    }

    private Result observeGeneration(Widget widget, ReconcileContext<Widget> context) {
        Long generation = widget.getMetadata().getGeneration();
        if (widget.getStatus() != null && Objects.equals(widget.getStatus().getObservedGeneration(), generation)) {
            return Result.done();
        }
        widget.setStatus(new Widget.Status());
        widget.getStatus().setObservedGeneration(generation);
        writes.incrementAndGet();
        boolean conflict = false;
        try {
            context.updateStatus(widget);
        } catch (KubernetesClientException e) {
            conflict = e.getCode() == 409;
            throw e;
        } finally {
            endedInConflict.put(context.key().toString() + "@" + context.retryCount(), conflict);
        }
        return Result.done();
    }

    /** Waits until the API server has every status caught up with its spec, and nothing is pending. */
    private void awaitConverged(Controller<Widget> controller) {
        eventually().atMost(CONVERGE_DEADLINE).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            List<String> lagging = lagging();
            // the queue state of each laggard tells a key still backing off from one the runtime dropped
            assertThat(lagging).as("objects whose status.observedGeneration is not their generation, with their "
                    + "queue state: %s", lagging.stream().map(name -> name + "=" + controller.state(ObjectKey.of(NS, name)))
                    .toList()).isEmpty();
            assertThat(controller.queueStats().idle()).as("queue idle").isTrue();
        });
    }

    private List<String> lagging() {
        return client.resources(Widget.class).inNamespace(NS).list().getItems().stream()
                .filter(widget -> widget.getStatus() == null || !Objects.equals(
                        widget.getStatus().getObservedGeneration(), widget.getMetadata().getGeneration()))
                .map(widget -> widget.getMetadata().getName()).toList();
    }

    private static List<String> names(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> String.format("%s-%03d", prefix, i)).toList();
    }

    /** After each 429 the 429 fault answered, how long until the same path was asked again: the client's retry. */
    private static List<Long> clientRetryDelaysMillis(Fault throttled) {
        List<Fault.Hit> hits = throttled.hits();
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < hits.size(); i++) {
            if (!hits.get(i).injected()) {
                continue;
            }
            for (int j = i + 1; j < hits.size(); j++) {
                if (hits.get(j).path().equals(hits.get(i).path())) {
                    delays.add((hits.get(j).nanos() - hits.get(i).nanos()) / 1_000_000);
                    break;
                }
            }
        }
        return delays;
    }

    private static long percentile(List<Long> values, int percentile) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(Math.max(0, (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1));
    }

    /** One scenario's controller, faults and what was counted once it converged. */
    private final class Run {
        final Controller<Widget> controller;
        final RecordingReconciler reconciler;
        Fault throttled;
        Fault failing;
        Fault conflicting;
        Duration convergeAfterLastUpdate;
        double sentPerSecond;
        int statusWrites;
        int patchRequests;
        long errors;
        long conflicts;
        double queueRetries;
        int backoffsChecked;

        Run(Controller<Widget> controller, RecordingReconciler reconciler) {
            this.controller = controller;
            this.reconciler = reconciler;
        }

        /** Load, faults and result, the same for both scenarios. */
        String describe() {
            return String.format("%d objects, %d spec updates at %d/s (sent at %.0f/s), status PATCH answered 429 "
                    + "(Retry-After 1 s) / 500 / 409 at %.0f%% each: converged %d/%d, lost 0, injected 429=%d 500=%d "
                    + "409=%d (+%d on one object)", BUSY + QUIET, UPDATES, UPDATES_PER_SECOND, sentPerSecond,
                    FRACTION * 100, BUSY + QUIET, BUSY + QUIET, throttled.injected(), failing.injected(),
                    conflicting.injected(), PROBE_CONFLICTS);
        }

        void collect() {
            statusWrites = writes.get();
            patchRequests = cluster.requests(request -> request.getMethod().equals("PATCH")
                    && STATUS_PATH.matcher(request.getPath().split("\\?")[0]).matches()).size();
            errors = controller.count(ReconcileOutcome.ERROR);
            conflicts = controller.count(ReconcileOutcome.CONFLICT);
        }

        /** No crash; every failure counted as controller-runtime counts it; retries backed off. */
        void assertHealthyCountedAndBackedOff() {
            ControllerStatus status = controller.status();
            assertThat(status.broken()).isFalse();
            assertThat(status.aliveWorkers()).isEqualTo(WORKERS);
            assertThat(new KubeloopHealthIndicator(manager).health().getStatus()).isEqualTo(Status.UP);

            PrometheusText metrics = PrometheusText.parse(registry.scrape());
            double failed = errors + conflicts;
            assertThat(metrics.value("controller_runtime_reconcile_errors_total", "controller", "widget"))
                    .contains(failed);
            assertThat(metrics.value("controller_runtime_reconcile_total", "controller", "widget", "result", "error"))
                    .contains(failed);
            queueRetries = metrics.value("workqueue_retries_total", "name", "widget", "controller", "widget")
                    .orElseThrow();
            assertThat(queueRetries).as("every failed reconcile was requeued with backoff").isEqualTo(failed);

            backoffsChecked = assertRetriesBackedOff(reconciler.calls(), Set.copyOf(quiet));
            assertThat(backoffsChecked).isGreaterThanOrEqualTo(PROBE_CONFLICTS);
        }
    }

    /**
     * For each retry of one of {@code keys} (a call whose retry count is one more than the call
     * before it), asserts it started at least as long after that call as its backoff: after a
     * conflict, the key's conflict backoff ({@link ReconcileOutcome#CONFLICT_BACKOFF_BASE} doubling
     * per conflict since the key's last success); after another error, the rate limiter's
     * ({@code base * 2^(errors - 1)}, or longer when its bucket is empty). Returns how many retries
     * it checked.
     */
    private int assertRetriesBackedOff(List<Call> calls, Set<String> keys) {
        Map<String, List<Call>> byKey = new HashMap<>();
        for (Call call : calls) {
            if (keys.contains(call.key().substring(NS.length() + 1))) {
                byKey.computeIfAbsent(call.key(), key -> new ArrayList<>()).add(call);
            }
        }
        int checked = 0;
        for (List<Call> keyCalls : byKey.values()) {
            int conflicts = 0;
            int errors = 0;
            for (int i = 1; i < keyCalls.size(); i++) {
                Call earlier = keyCalls.get(i - 1);
                Call later = keyCalls.get(i);
                if (later.retryCount() != earlier.retryCount() + 1) {
                    conflicts = 0;
                    errors = 0;
                    continue;
                }
                Duration backoff;
                if (endedInConflict.getOrDefault(earlier.key() + "@" + earlier.retryCount(), false)) {
                    conflicts++;
                    backoff = min(ReconcileOutcome.CONFLICT_BACKOFF_BASE.multipliedBy(1L << Math.min(conflicts - 1,
                            20)), ReconcileOutcome.CONFLICT_BACKOFF_MAX);
                } else {
                    errors++;
                    backoff = BASE.multipliedBy(1L << (errors - 1));
                }
                assertThat(Duration.ofNanos(later.startedNanos() - earlier.startedNanos()))
                        .as("%s retry %d (%d conflicts, %d errors)", later.key(), later.retryCount(), conflicts, errors)
                        .isGreaterThanOrEqualTo(backoff);
                checked++;
            }
        }
        return checked;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
