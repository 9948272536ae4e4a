package dev.kubeloop.metrics;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.Result;
import dev.kubeloop.api.TerminalException;
import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.PrometheusText;
import dev.kubeloop.testing.PrometheusText.Sample;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus contract: controller-runtime's metric names, types, labels, buckets and values,
 * pinned on the text a Prometheus registry scrapes, after reconciles of every outcome.
 */
class KubeloopMetricsTest {

    /** controller-runtime's reconcile time buckets, as Prometheus prints them. */
    private static final List<String> RECONCILE_TIME_LE = List.of("0.005", "0.01", "0.025", "0.05", "0.1", "0.15",
            "0.2", "0.25", "0.3", "0.35", "0.4", "0.45", "0.5", "0.6", "0.7", "0.8", "0.9", "1.0", "1.25", "1.5", "1.75",
            "2.0", "2.5", "3.0", "3.5", "4.0", "4.5", "5.0", "6.0", "7.0", "8.0", "9.0", "10.0", "15.0", "20.0", "25.0",
            "30.0", "40.0", "50.0", "60.0", "+Inf");

    private final AtomicBoolean laterReturned = new AtomicBoolean();
    private MockCluster cluster;
    private PrometheusMeterRegistry registry;
    private ControllerManager manager;

    @BeforeEach
    void setUp() {
        cluster = MockCluster.withWidgetCrd();
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        manager = ControllerManager.builder(cluster.client()).shutdownTimeout(Duration.ofSeconds(5))
                .observer(new KubeloopMetrics(registry)).build();
    }

    @AfterEach
    void tearDown() {
        manager.stop();
        cluster.close();
        registry.close();
    }

    private PrometheusText scrape() {
        return PrometheusText.parse(registry.scrape());
    }

    @Test
    void everyCounterOfAControllerExistsAtZeroBeforeItsFirstReconcile() {
        manager.register(ControllerConfig.builder("widget", Widget.class).workers(3).build(),
                new RecordingReconciler());
        manager.start();

        PrometheusText metrics = scrape();
        for (String result : List.of("success", "error", "requeue", "requeue_after")) {
            assertThat(metrics.value("controller_runtime_reconcile_total", "controller", "widget", "result", result))
                    .as(result).contains(0.0);
        }
        for (String counter : List.of("controller_runtime_reconcile_errors_total",
                "controller_runtime_terminal_reconcile_errors_total", "controller_runtime_reconcile_panics_total",
                "controller_runtime_reconcile_timeouts_total")) {
            assertThat(metrics.value(counter, "controller", "widget")).as(counter).contains(0.0);
        }
        assertThat(metrics.value("controller_runtime_max_concurrent_reconciles", "controller", "widget"))
                .contains(3.0);
        assertThat(metrics.value("controller_runtime_active_workers", "controller", "widget")).contains(0.0);
        assertThat(metrics.value("controller_runtime_reconcile_time_seconds_count", "controller", "widget"))
                .contains(0.0);
        for (String counter : List.of("workqueue_adds_total", "workqueue_retries_total")) {
            assertThat(metrics.value(counter, "name", "widget", "controller", "widget")).as(counter).contains(0.0);
        }
        assertThat(metrics.value("workqueue_depth", "name", "widget", "controller", "widget", "priority", "0"))
                .contains(0.0);
        assertThat(metrics.value("workqueue_depth", "name", "widget", "controller", "widget", "priority", "-100"))
                .contains(0.0);
    }

    @Test
    void everyOutcomeIsCountedWithControllerRuntimesResultsAndErrorCounters() {
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            switch (widget.getMetadata().getName()) {
                case "flaky" -> {
                    if (context.retryCount() == 0) {
                        throw new IllegalStateException("dependency not ready");
                    }
                }
                case "broken" -> throw new TerminalException("spec.size must be positive");
                case "again" -> {
                    if (context.retryCount() == 0) {
                        return Result.requeue();
                    }
                }
                case "later" -> {
                    if (laterReturned.compareAndSet(false, true)) {
                        return Result.requeueAfter(Duration.ofMillis(20));
                    }
                }
                case "bug" -> {
                    if (context.retryCount() == 0) {
                        Object missing = null;
                        missing.hashCode(); // a NullPointerException: a panic in Go terms
                    }
                }
                case "slow" -> {
                    if (context.retryCount() == 0) {
                        Thread.sleep(10_000); // interrupted by the reconcile timeout
                    }
                }
                default -> {
                }
            }
            return Result.done();
        });
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).workers(4)
                .reconcileTimeout(Duration.ofMillis(200)).build(), reconciler);
        manager.start();
        for (String name : List.of("ok", "flaky", "broken", "again", "later", "bug", "slow")) {
            cluster.client().resource(Widget.named("ns", name)).create();
        }

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) == 6
                && controller.count(ReconcileOutcome.TERMINAL_ERROR) == 1 && controller.queueStats().idle());

        PrometheusText metrics = scrape();
        assertThat(metrics.value("controller_runtime_reconcile_total", "controller", "widget", "result", "success"))
                .contains(6.0);
        // flaky, broken (terminal), bug (panic), slow (timeout): every failure is result="error", as in Go
        assertThat(metrics.value("controller_runtime_reconcile_total", "controller", "widget", "result", "error"))
                .contains(4.0);
        assertThat(metrics.value("controller_runtime_reconcile_total", "controller", "widget", "result", "requeue"))
                .contains(1.0);
        assertThat(metrics.value("controller_runtime_reconcile_total", "controller", "widget", "result",
                "requeue_after")).contains(1.0);
        assertThat(metrics.value("controller_runtime_reconcile_errors_total", "controller", "widget")).contains(4.0);
        assertThat(metrics.value("controller_runtime_terminal_reconcile_errors_total", "controller", "widget"))
                .contains(1.0);
        assertThat(metrics.value("controller_runtime_reconcile_panics_total", "controller", "widget"))
                .contains(1.0);
        assertThat(metrics.value("controller_runtime_reconcile_timeouts_total", "controller", "widget"))
                .contains(1.0);
        assertThat(metrics.value("controller_runtime_reconcile_time_seconds_count", "controller", "widget"))
                .contains(12.0);
        assertThat(metrics.value("controller_runtime_reconcile_time_seconds_sum", "controller", "widget"))
                .hasValueSatisfying(sum -> assertThat(sum).isGreaterThanOrEqualTo(0.2));
        // 7 creates + 5 re-adds (4 rate-limited: flaky, again, bug, slow; 1 after a delay: later)
        assertThat(metrics.value("workqueue_adds_total", "name", "widget", "controller", "widget")).contains(12.0);
        assertThat(metrics.value("workqueue_retries_total", "name", "widget", "controller", "widget")).contains(5.0);
        assertThat(metrics.value("workqueue_queue_duration_seconds_count", "name", "widget", "controller", "widget"))
                .contains(12.0);
        assertThat(metrics.value("workqueue_work_duration_seconds_count", "name", "widget", "controller", "widget"))
                .contains(12.0);
        assertThat(metrics.value("workqueue_depth", "name", "widget", "controller", "widget", "priority", "0"))
                .contains(0.0);
        assertThat(metrics.value("workqueue_unfinished_work_seconds", "name", "widget", "controller", "widget"))
                .contains(0.0);
        assertThat(metrics.value("workqueue_longest_running_processor_seconds", "name", "widget", "controller",
                "widget")).contains(0.0);
    }

    @Test
    void histogramsHaveControllerRuntimesAndClientGosBuckets() {
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), new RecordingReconciler());
        manager.start();
        cluster.client().resource(Widget.named("ns", "a")).create();
        eventually().until(() -> manager.controller("widget").orElseThrow().count(ReconcileOutcome.SUCCESS) == 1);

        PrometheusText metrics = scrape();
        assertThat(metrics.type("controller_runtime_reconcile_time_seconds")).contains("histogram");
        assertThat(metrics.type("workqueue_queue_duration_seconds")).contains("histogram");
        assertThat(metrics.type("workqueue_work_duration_seconds")).contains("histogram");
        assertThat(bucketBounds(metrics, "controller_runtime_reconcile_time_seconds_bucket"))
                .containsExactlyElementsOf(RECONCILE_TIME_LE);
        // client-go: ExponentialBuckets(10e-9, 10, 12), 10 ns to 1000 s
        List<String> workqueueLe = List.of("1.0E-8", "1.0E-7", "1.0E-6", "1.0E-5", "1.0E-4", "0.001", "0.01", "0.1",
                "1.0", "10.0", "100.0", "1000.0", "+Inf");
        assertThat(bucketBounds(metrics, "workqueue_queue_duration_seconds_bucket"))
                .containsExactlyElementsOf(workqueueLe);
        assertThat(bucketBounds(metrics, "workqueue_work_duration_seconds_bucket"))
                .containsExactlyElementsOf(workqueueLe);
        assertThat(metrics.value("controller_runtime_reconcile_time_seconds_bucket", "controller", "widget", "le",
                "+Inf")).contains(1.0);
    }

    private static List<String> bucketBounds(PrometheusText metrics, String bucket) {
        return metrics.samples(bucket).stream().map(s -> s.labels().get("le")).toList();
    }

    @Test
    void metricFamiliesHaveExactlyControllerRuntimesNamesTypesAndLabels() {
        manager.register(ControllerConfig.builder("widget", Widget.class).owns(List.of(ConfigMap.class)).build(),
                new RecordingReconciler());
        manager.start();

        PrometheusText metrics = scrape();
        assertFamily(metrics, "controller_runtime_reconcile_total", "counter", "controller", "result");
        assertFamily(metrics, "controller_runtime_reconcile_errors_total", "counter", "controller");
        assertFamily(metrics, "controller_runtime_terminal_reconcile_errors_total", "counter", "controller");
        assertFamily(metrics, "controller_runtime_reconcile_panics_total", "counter", "controller");
        assertFamily(metrics, "controller_runtime_reconcile_timeouts_total", "counter", "controller");
        assertFamily(metrics, "controller_runtime_reconcile_time_seconds_bucket", "histogram", "controller", "le");
        assertFamily(metrics, "controller_runtime_active_workers", "gauge", "controller");
        assertFamily(metrics, "controller_runtime_max_concurrent_reconciles", "gauge", "controller");
        assertFamily(metrics, "workqueue_depth", "gauge", "controller", "name", "priority");
        assertFamily(metrics, "workqueue_adds_total", "counter", "controller", "name");
        assertFamily(metrics, "workqueue_queue_duration_seconds_bucket", "histogram", "controller", "name", "le");
        assertFamily(metrics, "workqueue_work_duration_seconds_bucket", "histogram", "controller", "name", "le");
        assertFamily(metrics, "workqueue_unfinished_work_seconds", "gauge", "controller", "name");
        assertFamily(metrics, "workqueue_longest_running_processor_seconds", "gauge", "controller", "name");
        assertFamily(metrics, "workqueue_retries_total", "counter", "controller", "name");
        assertFamily(metrics, "kubeloop_informer_cached_objects", "gauge", "field_selector", "group", "kind",
                "label_selector", "metadata_only", "version", "watch_namespace");
        assertFamily(metrics, "kubeloop_informer_watch_restarts_total", "counter", "field_selector", "group", "kind",
                "label_selector", "metadata_only", "version", "watch_namespace");
        assertFamily(metrics, "kubeloop_writes_total", "counter", "controller", "operation");
        assertFamily(metrics, "kubeloop_writes_skipped_total", "counter", "controller", "operation");
        assertFamily(metrics, "kubeloop_read_your_writes_stale_reads_total", "counter", "avoided", "controller");
        assertFamily(metrics, "kubeloop_read_your_writes_cache_lag_seconds_bucket", "histogram", "controller", "le");
    }

    @Test
    void writesAreCountedByOperationAndTheCacheLagBehindThemIsMeasured() {
        manager.register(ControllerConfig.builder("widget", Widget.class).owns(List.of(ConfigMap.class)).build(),
                new RecordingReconciler().behaving((widget, context) -> {
                    context.apply(new ConfigMapBuilder().withNewMetadata().withName("cm").endMetadata()
                            .addToData("color", widget.getSpec().getColor()).build());
                    widget.setStatus(new Widget.Status());
                    widget.getStatus().setMessage("applied");
                    context.applyStatus(widget);
                    return Result.done();
                }));
        manager.start();
        PrometheusText before = scrape();
        for (String operation : List.of("apply", "apply_status", "update_status", "finalizer", "prune",
                "delete")) {
            assertThat(before.value("kubeloop_writes_total", "controller", "widget", "operation", operation))
                    .as(operation).contains(0.0);
        }

        cluster.client().resource(Widget.named("a", "one")).create();

        eventually().until(() -> scrape().value("kubeloop_read_your_writes_cache_lag_seconds_count", "controller",
                "widget").orElse(0.0) >= 2);
        PrometheusText metrics = scrape();
        assertThat(metrics.value("kubeloop_writes_total", "controller", "widget", "operation", "apply")).contains(1.0);
        assertThat(metrics.value("kubeloop_writes_total", "controller", "widget", "operation", "apply_status"))
                .contains(1.0);
        assertThat(metrics.value("kubeloop_writes_total", "controller", "widget", "operation", "update_status"))
                .contains(0.0);
        assertThat(metrics.value("kubeloop_read_your_writes_stale_reads_total", "controller", "widget", "avoided",
                "false")).contains(0.0);
    }

    private static void assertFamily(PrometheusText metrics, String sampleName, String type, String... labels) {
        List<Sample> samples = metrics.samples(sampleName);
        assertThat(samples).as(sampleName).isNotEmpty();
        String family = sampleName.replaceAll("_(bucket|total)$", "");
        assertThat(metrics.type(family).or(() -> metrics.type(sampleName))).as(sampleName + " type").contains(type);
        for (Sample sample : samples) {
            assertThat(sample.labels().keySet()).as(sampleName + " labels").containsExactlyInAnyOrder(labels);
        }
    }

    @Test
    void informersReportCachedObjectsPerTypeAndScope() {
        cluster.client().resource(Widget.named("a", "one")).create();
        cluster.client().resource(Widget.named("a", "two")).create();
        cluster.client().resource(Widget.named("b", "three")).create();
        manager.register(ControllerConfig.builder("widget", Widget.class).namespaces(List.of("a", "b"))
                .labelSelector("").owns(List.of(ConfigMap.class)).build(), new RecordingReconciler());
        manager.start();

        PrometheusText metrics = scrape();
        assertThat(metrics.value("kubeloop_informer_cached_objects", "group", "kubeloop.dev", "version", "v1",
                "kind", "Widget", "watch_namespace", "a", "label_selector", "", "field_selector", "", "metadata_only", "false")).contains(2.0);
        assertThat(metrics.value("kubeloop_informer_cached_objects", "group", "kubeloop.dev", "version", "v1",
                "kind", "Widget", "watch_namespace", "b", "label_selector", "", "field_selector", "", "metadata_only", "false")).contains(1.0);
        assertThat(metrics.value("kubeloop_informer_cached_objects", "group", "", "version", "v1",
                "kind", "ConfigMap", "watch_namespace", "a", "label_selector", "", "field_selector", "", "metadata_only", "false")).contains(0.0);
        assertThat(metrics.value("kubeloop_informer_watch_restarts_total", "group", "kubeloop.dev", "version", "v1",
                "kind", "Widget", "watch_namespace", "a", "label_selector", "", "field_selector", "", "metadata_only", "false")).contains(0.0);

        cluster.client().resource(Widget.named("b", "four")).create();
        eventually().until(() -> scrape().value("kubeloop_informer_cached_objects", "group", "kubeloop.dev",
                "version", "v1", "kind", "Widget", "watch_namespace", "b", "label_selector", "", "field_selector", "", "metadata_only", "false").orElse(0.0) == 2.0);
    }

    @Test
    void noSeriesCarriesAnObjectsNameOrNamespace() {
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) ->
                context.retryCount() == 0 ? Result.requeue() : Result.done());
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                reconciler);
        manager.start();
        for (int i = 0; i < 20; i++) {
            cluster.client().resource(Widget.named("team-" + i, "object-" + i)).create();
        }
        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) == 20);

        PrometheusText metrics = scrape();
        Set<String> labelValues = metrics.samples().stream()
                .filter(s -> s.name().startsWith("controller_runtime_") || s.name().startsWith("workqueue_")
                        || s.name().startsWith("kubeloop_"))
                .flatMap(s -> s.labels().values().stream()).collect(Collectors.toCollection(TreeSet::new));
        assertThat(labelValues).noneMatch(value -> value.startsWith("team-") || value.startsWith("object-"));
        long series = metrics.samples().stream().filter(s -> s.name().startsWith("controller_runtime_")
                || s.name().startsWith("workqueue_")).count();
        assertThat(series).as("bounded by controllers, not objects: %s", Arrays.toString(labelValues.toArray()))
                .isLessThan(100);
    }
}
